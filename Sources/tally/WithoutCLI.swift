#if !CLI
import Foundation
import Tally

/// The executable built without the `CLI` trait, as every package that depends on Tally builds it unless it
/// asks for the trait: it only explains how to get the command line, so that ArgumentParser is resolved by
/// nobody who does not use it.
@main
enum TallyWithoutCLI {
    static func main() {
        StandardStreams.writeToStandardError(
            """
            tally: this build has no command line; it needs the package trait CLI.
              In this repository:  swift run --traits CLI tally --help
              In your repository:  a tools package (README: "Run the tally command line"), Tools/Package.swift,
                with .package(url: "https://github.com/<owner>/tally", branch: "main", traits: ["CLI", "Collector"]),
                then: swift run --package-path Tools tally --help

            """)
        exit(64)
    }
}
#endif
