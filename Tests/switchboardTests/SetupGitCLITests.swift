import Foundation
import Testing
import TestSupport

/// `switchboard setup-git` in this process, running the real `git config`
/// on a home folder of the test's own.
@Suite("switchboard setup-git")
struct SetupGitCLITests {
    /// A home with a `.gitconfig` and a config.toml configuring GitHub and a git host of an OpenID Connect provider.
    private struct Home {
        let cli = CLI()
        var gitconfig: String { cli.folder.file(".gitconfig") }
        var config: String { cli.folder.file("config.toml") }

        init(gitconfig text: String?) throws {
            if let text { try text.write(toFile: gitconfig, atomically: true, encoding: .utf8) }
            try """
                [providers.github]
                client_id = "Iv1.x"

                [providers.work]
                kind = "oidc"
                issuer = "https://login.example.com"
                client_id = "c"
                git_hosts = ["git.example.com"]
                """.write(toFile: config, atomically: true, encoding: .utf8)
        }

        func run(_ arguments: String..., environment: [String: String] = [:]) async -> ProcessResult {
            await TestIO(environment: cli.environment(["HOME": cli.folder.path, "SWITCHBOARD_CONFIG": config, "XDG_CONFIG_HOME": cli.folder.file("xdg")]
                .merging(environment) { $1 })).run(arguments)
        }

        /// git's own reading of the helpers for `url`.
        func helpers(_ url: String) async throws -> [String] {
            let result = try await runProcess("/usr/bin/git", ["config", "--global", "--get-all", "credential.\(url).helper"],
                                              environment: ["HOME": cli.folder.path, "XDG_CONFIG_HOME": cli.folder.file("xdg")])
            return result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
    }

    static let before = """
        # Someone's own settings.
        [user]
        \tname = Last Person
        \temail = last@example.org
        [credential "https://github.com"]
        \tusername = octo
        [alias]
        \tst = status

        """

    @Test("setup-git then setup-git --undo leaves .gitconfig byte for byte as it was; run again, setup-git changes nothing")
    func roundTrip() async throws {
        let home = try Home(gitconfig: Self.before)
        let setUp = await home.run("setup-git")
        #expect(setUp.status == 0, "\(setUp.stderr)")
        #expect(setUp.stdout == """
            In your global git configuration (git config --global):
              credential.https://github.com.helper: added an empty helper (it clears those before it) and !switchboard git-credential
              credential.https://gist.github.com.helper: added an empty helper (it clears those before it) and !switchboard git-credential
              credential.https://git.example.com.helper: added an empty helper (it clears those before it) and !switchboard git-credential
            Commits take their author from the shell: add eval "$(switchboard hook bash)" to your shell's rc file, so that GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL follow who acts in each terminal and folder (git's own user.name and user.email otherwise).

            """)
        // With the hook in the shell, the reminder is not repeated.
        #expect(!(await home.run("setup-git", environment: ["SWITCHBOARD_HOOK": "bash"])).stdout.contains("hook"))
        #expect(try await home.helpers("https://github.com") == ["", "!switchboard git-credential"])
        #expect(try await home.helpers("https://git.example.com") == ["", "!switchboard git-credential"])
        let written = try String(contentsOfFile: home.gitconfig, encoding: .utf8)
        let again = await home.run("setup-git", "--json")
        #expect(again.stdout.contains(#""change":"unchanged""#) && !again.stdout.contains(#""added""#))
        #expect(try String(contentsOfFile: home.gitconfig, encoding: .utf8) == written)
        let undo = await home.run("setup-git", "--undo")
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stdout.contains("credential.https://github.com.helper: removed !switchboard git-credential and the empty helper before it"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.gitconfig)) == Data(Self.before.utf8))
        let nothing = await home.run("setup-git", "--undo", "--json")
        #expect(nothing.stdout.contains(#""change":"absent""#) && !nothing.stdout.contains(#""removed""#))
    }

    @Test("with no .gitconfig, undo leaves an empty file; other helpers before Switchboard's are kept, and come back on undo")
    func otherHelpers() async throws {
        let home = try Home(gitconfig: nil)
        #expect(await home.run("setup-git").status == 0)
        #expect(await home.run("setup-git", "--undo").status == 0)
        #expect(try String(contentsOfFile: home.gitconfig, encoding: .utf8) == "")

        let gh = "[credential \"https://github.com\"]\n\thelper = \n\thelper = !/usr/bin/gh auth git-credential\n"
        let withGh = try Home(gitconfig: gh)
        #expect(await withGh.run("setup-git").status == 0)
        #expect(try await withGh.helpers("https://github.com") == ["", "!/usr/bin/gh auth git-credential", "", "!switchboard git-credential"])
        #expect(await withGh.run("setup-git", "--undo").status == 0)
        #expect(try await withGh.helpers("https://github.com") == ["", "!/usr/bin/gh auth git-credential"])
    }

    @Test("--local writes the repository's configuration; outside one, that is said in plain words (64); no provider serving git: nothing changed")
    func local() async throws {
        let home = try Home(gitconfig: Self.before)
        let repository = home.cli.folder.file("repo.git")
        let made = try await runProcess("/usr/bin/git", ["init", "-q", "--bare", repository])
        #expect(made.status == 0, "\(made.stderr)")
        let local = await home.run("setup-git", "--local", environment: ["GIT_DIR": repository])
        #expect(local.status == 0 && local.stdout.hasPrefix("In this repository's git configuration"), "\(local.stderr)")
        #expect(try String(contentsOfFile: repository + "/config", encoding: .utf8).contains("helper = !switchboard git-credential"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: home.gitconfig)) == Data(Self.before.utf8))
        let outside = await home.run("setup-git", "--local", environment: ["GIT_DIR": home.cli.folder.file("none")])
        #expect(outside.status == 64 && outside.stderr.contains("is not inside a git repository") && !outside.stderr.contains("fatal"), "\(outside.stderr)")
        let bare = CLI()
        let none = await TestIO(environment: bare.environment(["HOME": bare.folder.path, "SWITCHBOARD_CONFIG": bare.folder.file("none.toml")])).run(["setup-git"])
        #expect(none.status == 0 && none.stdout.hasPrefix("No configured provider serves git"))
        #expect(!FileManager.default.fileExists(atPath: bare.folder.file(".gitconfig")))
    }
}
