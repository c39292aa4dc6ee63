// This target is linked as a shared object that the `switchboard` launcher
// loads (see Package.swift); it is never run as a program. SwiftPM wants an
// executable target to have a main file: this is it, and it does nothing.
// The entry point is `switchboard_runtime_enter` in Entry.swift.
