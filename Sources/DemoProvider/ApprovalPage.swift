/// HTML for the approval page and its result pages: self-contained (inline
/// style, no scripts, no external assets), UTF-8, every dynamic value escaped.
enum ApprovalPage {
    /// The code entry form with one radio button per person. The code field
    /// takes the focus only when it is empty: with the code filled in (the
    /// QR code's link), a phone's keyboard would cover Approve.
    static func form(userCode: String, people: [DemoPerson], selected: String?, notice: String? = nil) -> String {
        let chosen = people.contains { $0.id == selected } ? selected : people.first?.id
        let radios = people.map { person in
            let email = person.email.map { "<small>\(escape($0))\(person.emailVerified ? "" : " (unverified)")</small>" } ?? ""
            return """
                <label class="person"><input type="radio" name="person" value="\(escape(person.id))"\
                \(person.id == chosen ? " checked" : "")><span>\(escape(person.name))\(email)</span></label>
                """
        }.joined(separator: "\n")
        let noticeHTML = notice.map { "<p class=\"notice\" role=\"alert\">\(escape($0))</p>\n" } ?? ""
        let body = """
            <h1>Sign in to Switchboard</h1>
            <p>Enter the code shown in your terminal, choose who you are, and approve.</p>
            \(noticeHTML)<form method="post" action="/device">
            <label for="user_code">Code</label>
            <input id="user_code" name="user_code" value="\(escape(userCode))" placeholder="BCDF-GHJK" \
            autocomplete="off" autocapitalize="characters" spellcheck="false" required\(userCode.isEmpty ? " autofocus" : "")>
            <fieldset><legend>Sign in as</legend>
            \(people.isEmpty ? "<p>No people left.</p>" : radios)
            </fieldset>
            <div class="actions">
            <button type="submit" name="action" value="approve" class="approve">Approve</button>
            <button type="submit" name="action" value="deny">Deny</button>
            </div>
            </form>
            """
        return document(title: "Demo sign-in", body: body)
    }

    /// A result page: a heading and one explanatory sentence.
    static func result(_ heading: String, _ detail: String) -> String {
        document(title: heading, body: """
            <h1>\(escape(heading))</h1>
            <p>\(escape(detail))</p>
            <p><a href="/device">Enter another code</a></p>
            """)
    }

    /// Escapes text for use in HTML content and quoted attribute values.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    private static func document(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title)) · Switchboard demo provider</title>
        <style>
        body { font: 16px/1.5 system-ui, sans-serif; max-width: 30rem; margin: 3rem auto; padding: 0 1rem; }
        input#user_code { font: 1.5rem ui-monospace, monospace; letter-spacing: .1em; width: 100%; min-height: 2.75rem; \
        box-sizing: border-box; text-transform: uppercase; padding: .25rem .5rem; }
        fieldset { margin: 1rem 0; }
        label.person { display: flex; align-items: center; gap: .75rem; min-height: 2.75rem; padding: .25rem 0; }
        label.person input { width: 1.25rem; height: 1.25rem; margin: 0; flex: none; }
        small { display: block; color: #555; font-size: .85rem; } .notice { color: #a00; font-weight: bold; }
        .actions { display: flex; gap: .75rem; }
        button { font: inherit; min-height: 2.75rem; padding: .5rem 1.5rem; border-radius: .375rem; cursor: pointer; \
        border: 2px solid #1a5fb4; background: #fff; color: #1a5fb4; }
        button.approve { background: #1a5fb4; color: #fff; font-weight: bold; }
        a { display: inline-flex; align-items: center; min-height: 2.75rem; }
        @media (max-width: 30rem) { body { margin-top: 1.5rem; } h1 { font-size: 1.6rem; } button { flex: 1; } }
        </style>
        </head>
        <body>
        <main>
        \(body)
        </main>
        </body>
        </html>

        """
    }
}
