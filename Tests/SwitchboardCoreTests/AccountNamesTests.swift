import SwitchboardCore
import Testing

@Suite("two accounts named in one sentence")
struct AccountNamesTests {
    @Test("names that read alike (case aside) carry their numbers; different names, or one account, stay as they are")
    func distinct() {
        let (a, b) = Account.distinctNames(("Ada Lovelace", AccountID(1)), ("ada lovelace", AccountID(4)))
        #expect(a == "Ada Lovelace (account 1)" && b == "ada lovelace (account 4)")
        let (c, d) = Account.distinctNames(("Ada Lovelace", AccountID(1)), ("Grace Hopper", AccountID(2)))
        #expect(c == "Ada Lovelace" && d == "Grace Hopper")
        let (e, f) = Account.distinctNames(("Ada", AccountID(1)), ("Ada", AccountID(1)))
        #expect(e == "Ada" && f == "Ada")
    }
}
