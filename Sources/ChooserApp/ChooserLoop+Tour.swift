import ChooserUI
import Foundation
import SwitchboardCore

/// The tour's requests: the demo provider's switches and approvals, and an empty store for each round.
extension ChooserLoop where Program == Tour {
    /// Carries out a request of the tour: an empty store now, in place of
    /// the one shown (any sign-in ended first); the demo provider's API off
    /// the main actor. The answer comes back as `TourAction.answered`.
    func performTour(_ effect: TourEffect) {
        guard case .request(let request, let id) = effect else { return }
        guard let driver = environment.tour else { return reduce(layer: .answered(id: id, problem: "there is no tour here")) }
        guard request == .freshStore else {
            Task { @MainActor [weak self] in
                let problem = await driver.provider(request)
                self?.send(layer: .answered(id: id, problem: problem))
            }
            return
        }
        signIn?.run?.cancel()
        signIn?.task.cancel()
        (signIn, pendingConflict) = (nil, nil)
        do {
            environment.database = try driver.freshStore()
        } catch {
            return reduce(layer: .answered(id: id, problem: "no empty store: \(error)"))
        }
        // The tour layer dropped the list and its index: both come from the new store.
        loadFirstPage()
        refreshIndex()
        reduce(layer: .answered(id: id, problem: nil))
    }
}
