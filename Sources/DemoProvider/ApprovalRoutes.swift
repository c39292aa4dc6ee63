import FlyingFox
import Foundation

extension Provider {
    /// `GET /device[?user_code=…]`: the approval page (RFC 8628 §3.3).
    func approvalPage(_ request: HTTPRequest) async -> HTTPResponse {
        let typed = request.query["user_code"] ?? ""
        let prefill = Secrets.canonicalUserCode(typed).map(Secrets.display) ?? typed
        return Reply.html(ApprovalPage.form(userCode: prefill, people: await store.knownPeople, selected: nil))
    }

    /// `POST /device` (form `user_code`, `person`, `action=approve|deny`): records the decision.
    func submitApproval(_ request: HTTPRequest) async -> HTTPResponse {
        let form = await request.formFields()
        let userCode = form["user_code"] ?? ""
        let deny = form["action"] == "deny"
        do {
            switch try await store.decide(userCode: userCode, person: form["person"], deny: deny, client: request.client) {
            case .approved(let person):
                return Reply.html(ApprovalPage.result(
                    "Approved — return to your terminal",
                    "You are signed in as \(person.name). You can close this page."))
            case .denied:
                return Reply.html(ApprovalPage.result(
                    "Denied", "The sign-in request was denied. You can close this page."))
            }
        } catch {
            return await failurePage(error, userCode: userCode, person: form["person"])
        }
    }

    private func failurePage(_ failure: ApprovalFailure, userCode: String, person: String?) async -> HTTPResponse {
        switch failure {
        case .unknownCode, .expired:
            return Reply.html(ApprovalPage.result(
                "Unknown or expired code", "Check the code in your terminal, or start signing in again."),
                status: failure == .expired ? .conflict : .notFound)
        case .alreadyUsed:
            return Reply.html(ApprovalPage.result(
                "Code already used", "This code was already approved or denied."), status: .conflict)
        case .tooManyAttempts:
            var response = Reply.html(ApprovalPage.result(
                "Too many attempts", "Too many wrong codes were entered. Wait a minute and try again."),
                status: .tooManyRequests)
            response.headers[HTTPHeader("Retry-After")] = "60"
            return response
        case .unknownPerson:
            let page = ApprovalPage.form(userCode: userCode, people: await store.knownPeople, selected: person,
                                         notice: "Choose who is signing in.")
            return Reply.html(page, status: .badRequest)
        }
    }
}
