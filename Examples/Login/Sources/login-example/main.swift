// The login app of "Testing analytics in an iOS app", as a process a test can launch and drive: the
// stand-in for the article's XCUITest target.
//
// Reads commands, one per line, on standard input: `appear`, `tap login`, `tap sign up`, `sign in`,
// `opt out`, `opt in`, `quit` (end of input quits too). After each command it waits until the command's events reached every destination,
// then prints `ok <command>`, so a driver knows a recording holds them. Analytics lines go to standard
// output as the console destination prints them. Recording is switched on by the environment:
//
//   TALLY_RECORD=/tmp/login.jsonl swift run login-example
import Foundation
import LoginExample

func write(_ line: String, to handle: FileHandle = .standardOutput) {
    handle.write(Data((line + "\n").utf8))  // unbuffered, so a driver reading a pipe sees it at once
}

let app: LoginApp
do {
    app = try LoginApp(console: { write($0) })
} catch {
    write("login-example: \(error)", to: .standardError)
    exit(1)
}

write("ready, destinations: \(app.destinationNames.joined(separator: ", "))")
while let line = readLine() {
    guard let command = LoginCommand(line: line) else {
        write(
            "login-example: unknown command '\(line)'; try: \(LoginCommand.allCases.map(\.rawValue))",
            to: .standardError)
        write("error \(line)")
        continue
    }
    if command == .quit { break }
    await app.perform(command)
    write("ok \(command.rawValue)")
}
await app.shutdown()
write("bye")
