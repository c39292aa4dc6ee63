import Foundation
import TestBasics

/// A tab of a `HeadlessChromium`: its size, what it shows, taps and screenshots.
public struct BrowserPage: Sendable {
    public let browser: HeadlessChromium
    /// The DevTools session its commands go to.
    public let session: String

    /// A screen size, in CSS pixels: a phone's is mobile (its viewport is
    /// the page's `width=device-width`), with `scale` device pixels to a CSS pixel.
    public struct Screen: Sendable, CustomStringConvertible {
        public let name: String
        public let width: Int
        public let height: Int
        public let scale: Double
        public let mobile: Bool

        public init(name: String, width: Int, height: Int, scale: Double, mobile: Bool) {
            (self.name, self.width, self.height, self.scale, self.mobile) = (name, width, height, scale, mobile)
        }

        /// A phone held upright: 390×844 CSS px at 3 device pixels each (an iPhone 12 to 15's).
        public static let phone = Screen(name: "phone", width: 390, height: 844, scale: 3, mobile: true)
        /// A laptop's browser window.
        public static let desktop = Screen(name: "desktop", width: 1280, height: 800, scale: 1, mobile: false)

        public var description: String { "\(name) (\(width)×\(height))" }
    }

    /// Shows pages as `screen` would, from the next page loaded on.
    public func emulate(_ screen: Screen) async throws {
        try await browser.call("Emulation.setDeviceMetricsOverride", [
            "width": .number(Double(screen.width)), "height": .number(Double(screen.height)),
            "deviceScaleFactor": .number(screen.scale), "mobile": .bool(screen.mobile),
        ], session: session)
        try await browser.call("Emulation.setTouchEmulationEnabled", ["enabled": .bool(screen.mobile)], session: session)
    }

    /// Loads `url` and waits for its load event.
    public func navigate(to url: String) async throws {
        try await loading("\(url) to load") {
            let answer = try await browser.call("Page.navigate", ["url": .string(url)], session: session)
            if let error = answer["errorText"]?.string { throw BrowserError("cannot load \(url): \(error)") }
        }
    }

    /// Runs `action` and waits for the page it leads to to load (a form
    /// submitted, a link followed).
    public func loading(_ what: String, _ action: () async throws -> Void) async throws {
        let before = browser.events("Page.loadEventFired", session: session).count
        try await action()
        try await waitUntil(what) { browser.events("Page.loadEventFired", session: session).count > before }
    }

    /// The value of the JavaScript `expression` (a promise's, awaited), as JSON.
    public func evaluate(_ expression: String) async throws -> JSONValue {
        let answer = try await browser.call(
            "Runtime.evaluate", ["expression": .string(expression), "returnByValue": true, "awaitPromise": true], session: session)
        if let exception = answer["exceptionDetails"] {
            throw BrowserError("the script failed: \(exception["exception"]?["description"]?.string ?? exception["text"]?.string ?? "\(exception)")")
        }
        return answer["result"]?["value"] ?? .null
    }

    /// Taps (a finger down and up) at `x`, `y` in CSS pixels of the
    /// viewport, as on a touch screen (`emulate` turns touch on for a mobile
    /// screen); the page gets the touch events and then the click they make.
    public func tap(x: Double, y: Double) async throws {
        for type in ["touchStart", "touchEnd"] {
            let points: JSONValue = type == "touchEnd" ? .array([]) : .array([["x": .number(x), "y": .number(y)]])
            try await browser.call("Input.dispatchTouchEvent", ["type": .string(type), "touchPoints": points], session: session)
        }
    }

    /// What the viewport shows now, as a PNG (the first screen only, as a person sees it without scrolling).
    public func screenshot() async throws -> Data {
        let answer = try await browser.call("Page.captureScreenshot", ["format": "png"], session: session)
        guard let text = answer["data"]?.string, let png = Data(base64Encoded: text) else { throw BrowserError("no screenshot in \(answer)") }
        return png
    }
}
