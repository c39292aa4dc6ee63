import DemoProvider
import Foundation
import Testing
import TestBasics
import TestSupport
@testable import DeviceFlow

/// The demo provider's approval page as a person scanning the code sees it:
/// loaded from the real server on loopback, with a real pending code, in
/// Debian's headless Chromium at a phone's size and a desktop's, every
/// figure measured by the browser. The screenshots are kept in
/// `Tests/__Screenshots__` (git-ignored, outside every target) for a person
/// to look at.
@Suite("The approval page in headless Chromium, at phone and desktop size")
struct ApprovalPageBrowserTests {
    /// Where the screenshots go.
    static let screenshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("__Screenshots__")

    @Test("no sideways scrolling, the code and both buttons on the first screen, 44 px tap targets on the phone, 16 px input text, nothing cut off; a tap on Approve gives the flow its token")
    func phoneAndDesktop() async throws {
        let executable = try #require(HeadlessChromium.executable, "Debian's chromium is not installed (.ci/run installs it)")
        let server = DemoServer(settings: DemoSettings(interval: 1))
        let base = try await server.start(port: 0)
        let transport = URLSessionTransport(timeout: 10)
        let provider = try await ResolvedProvider.resolve(.demo(issuer: base), transport: transport)
        let flow = provider.makeFlow(transport: transport)
        let code = try await flow.requestCode()
        let address = try #require(code.verificationURIComplete?.absoluteString)
        #expect(address.hasPrefix(base.absoluteString), "the page is the server's own, on loopback")
        // The flow polls as a terminal's would while the person looks at the page.
        let waiting = Task { await flow.waitForApproval() }
        defer { waiting.cancel() }
        try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)

        let browser = try HeadlessChromium(executable: executable)
        let page = try await browser.openPage()
        for screen in [BrowserPage.Screen.desktop, .phone] {
            try await page.emulate(screen)
            try await page.navigate(to: address)
            let look = try await ApprovalLook.measure(page)
            try await page.screenshot().write(to: Self.screenshots.appendingPathComponent("approval-\(screen.name).png"))
            look.checkFits(on: screen)
            look.checkForm(on: screen, userCode: code.userCode)
        }

        // On the phone (loaded last): tap Grace, then Approve.
        let before = try await ApprovalLook.measure(page)
        let grace = try #require(before.people.first { $0.text.hasPrefix("Grace Hopper") }, "\(before.people)")
        try await page.tap(x: grace.box.centerX, y: grace.box.centerY)
        #expect(try await page.evaluate(#"document.querySelector('input[value="grace"]').checked"#) == .bool(true))
        try await page.loading("the page after Approve") { try await page.tap(x: before.approve.centerX, y: before.approve.centerY) }
        let after = try await ApprovalLook.measure(page)
        try await page.screenshot().write(to: Self.screenshots.appendingPathComponent("approved-phone.png"))
        #expect(after.heading == "Approved — return to your terminal", "\(after.heading)")
        after.checkFits(on: .phone)
        await browser.close()
        let traffic = try browser.trafficBeyondLoopback()
        #expect(traffic.isEmpty, "the browser reached beyond loopback: \(traffic)")

        guard case .approved(let tokens) = await waiting.value else {
            Issue.record("the flow was not approved")
            await server.stop()
            return
        }
        let identity = try await provider.identityResolver(transport: transport).identity(for: tokens)
        #expect(identity.displayName == "Grace Hopper" && identity.identity.provider == "demo", "\(identity)")
        await server.stop()
    }
}

/// What the browser measured of the approval page (CSS pixels).
struct ApprovalLook: Decodable, CustomStringConvertible {
    struct Box: Decodable, CustomStringConvertible {
        let top, bottom, left, right: Double
        var height: Double { bottom - top }
        var centerX: Double { (left + right) / 2 }
        var centerY: Double { (top + bottom) / 2 }
        var description: String { "(\(Int(left)),\(Int(top)))–(\(Int(right)),\(Int(bottom)))" }
    }

    /// Something to tap or type into, named by its text.
    struct Target: Decodable {
        let text: String
        let box: Box
    }

    struct CodeField: Decodable {
        let box: Box
        let value: String
        let fontSize: Double
        /// The text's width, and the room it has: wider than the room, the code is cut off inside its field.
        let scrollWidth, clientWidth: Double
    }

    let innerWidth, innerHeight, scrollWidth: Double
    let heading: String
    let code: CodeField?
    let approve, deny: Box
    let people: [Target]
    /// Every link, button, field and person's row.
    let targets: [Target]
    /// The id of the element with the focus ("" for none).
    let focused: String
    /// Elements whose content is clipped by their own box (a field too narrow, an ellipsis).
    let cut: [String]
    /// Text that lies partly outside the viewport's width.
    let offScreen: [String]

    var description: String {
        "viewport \(Int(innerWidth))×\(Int(innerHeight)), scrollWidth \(Int(scrollWidth)); code \(code.map { "\($0.box) \($0.fontSize) px" } ?? "none"); "
            + "approve \(approve), deny \(deny); people \(people.map { "\($0.text.prefix(12)) \($0.box)" }); cut \(cut); off screen \(offScreen)"
    }

    /// The page's figures, measured in the page.
    static func measure(_ page: BrowserPage) async throws -> ApprovalLook {
        let json = try await page.evaluate(script)
        guard let text = json.string else { throw BrowserError("the measuring script answered \(json)") }
        return try JSONDecoder().decode(ApprovalLook.self, from: Data(text.utf8))
    }

    /// Checks that the page fits `screen` as a person sees it: the viewport
    /// is the screen's, nothing scrolls sideways or is cut off, and on a
    /// phone every tap target is at least 44 px high.
    func checkFits(on screen: BrowserPage.Screen, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(innerWidth == Double(screen.width) && innerHeight == Double(screen.height), "\(screen): \(self)", sourceLocation: sourceLocation)
        #expect(scrollWidth <= innerWidth, "\(screen) scrolls sideways: \(self)", sourceLocation: sourceLocation)
        #expect(cut.isEmpty && offScreen.isEmpty, "\(screen): text cut off: \(self)", sourceLocation: sourceLocation)
        guard screen.mobile else { return }
        #expect(!targets.isEmpty, "\(screen): nothing to tap: \(self)", sourceLocation: sourceLocation)
        for target in targets {
            #expect(target.box.height >= 44, "\(screen): \"\(target.text)\" is \(target.box.height) px high, under 44", sourceLocation: sourceLocation)
        }
    }

    /// Checks what a person scanning the code needs of the form on `screen`:
    /// the code filled in, in big enough letters, and it and both buttons
    /// on the first screen, with no keyboard called up over them.
    func checkForm(on screen: BrowserPage.Screen, userCode: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let code else {
            Issue.record("\(screen): no code field: \(self)", sourceLocation: sourceLocation)
            return
        }
        #expect(code.value == userCode, "\(screen): the field holds \(code.value)", sourceLocation: sourceLocation)
        for (name, box) in [("the code", code.box), ("Approve", approve), ("Deny", deny)] {
            let inside = box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth
            #expect(inside, "\(screen): \(name) is not on the first screen: \(self)", sourceLocation: sourceLocation)
        }
        #expect(code.fontSize >= 16, "\(screen): the code field's text is \(code.fontSize) px (a phone zooms in below 16)", sourceLocation: sourceLocation)
        #expect(code.scrollWidth <= code.clientWidth, "\(screen): the code is cut off in its field", sourceLocation: sourceLocation)
        #expect(focused != "user_code", "\(screen): the filled-in field has the focus (a phone's keyboard would cover Approve)", sourceLocation: sourceLocation)
        #expect(people.count == DemoServer.people.count, "\(screen): \(self)", sourceLocation: sourceLocation)
    }

    /// Measures in the page; answers the figures as a JSON text.
    static let script = #"""
        (() => {
          const box = e => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
          const label = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' "' + (e.value || e.textContent || '').trim().slice(0, 40) + '"';
          const field = document.getElementById('user_code');
          const cut = [...document.querySelectorAll('body *')].filter(e => {
            const style = getComputedStyle(e);
            const clips = e.tagName === 'INPUT' || style.overflowX !== 'visible' || style.overflowY !== 'visible' || style.textOverflow === 'ellipsis';
            return clips && e.type !== 'radio' && (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1);
          }).map(label);
          const offScreen = [];
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          while (walker.nextNode()) {
            const node = walker.currentNode;
            if (!node.textContent.trim()) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            if ([...range.getClientRects()].some(r => r.left < 0 || r.right > innerWidth + 0.5)) offScreen.push(node.textContent.trim().slice(0, 40));
          }
          return JSON.stringify({
            innerWidth, innerHeight,
            scrollWidth: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
            heading: (document.querySelector('h1') || { textContent: '' }).textContent.trim(),
            code: field && { box: box(field), value: field.value, fontSize: parseFloat(getComputedStyle(field).fontSize),
                             scrollWidth: field.scrollWidth, clientWidth: field.clientWidth },
            approve: box(document.querySelector('button[value=approve]') || document.body),
            deny: box(document.querySelector('button[value=deny]') || document.body),
            people: [...document.querySelectorAll('label.person')].map(e => ({ text: e.textContent.trim(), box: box(e) })),
            targets: [...document.querySelectorAll('a, button, input:not([type=radio]), label.person')]
              .map(e => ({ text: (e.value || e.textContent || '').trim().slice(0, 40), box: box(e) })),
            focused: (document.activeElement && document.activeElement.id) || '',
            cut, offScreen,
          });
        })()
        """#
}
