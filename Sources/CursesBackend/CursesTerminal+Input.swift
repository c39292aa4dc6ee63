import CNcurses
import Dispatch
import TerminalUI
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension CursesTerminal {
    /// Delivers, on the main actor and in order, every key, mouse report and
    /// new size to `onEvent`, and the first SIGTERM, SIGHUP, SIGINT or
    /// SIGQUIT to `onSignal`, so the program can quit in order. The same
    /// signal again restores the terminal and ends the process at once;
    /// another kind is part of the same stop.
    ///
    /// Input read before `listen` waits in the terminal until then; a
    /// terminal that hangs up delivers SIGHUP to `onSignal`.
    public func listen(
        onEvent: @escaping @MainActor (InputEvent) -> Void, onSignal: @escaping @MainActor (Int32) -> Void
    ) {
        guard isRunning else { return }
        self.onEvent = onEvent
        self.onSignal = onSignal
        Self.deliverTerminations()
        if wakeSource == nil, wakePipe.read >= 0 { startWakeSource() }
        if inputSource == nil { startInputSource() }
        drainInput()
    }

    /// A read source on the input, on the main queue — the main actor's —
    /// so its handler calls curses directly. It wakes only when there is
    /// something to read.
    func startInputSource() {
        // Watched through a descriptor of its own, closed once the source is
        // cancelled, so the caller may close theirs whenever it likes.
        let watched = sb_dup_cloexec(self.input)
        let input = DispatchSource.makeReadSource(fileDescriptor: watched, queue: .main)
        input.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                if let self { self.inputReady() } else { input.cancel() }
            }
        }
        input.setCancelHandler { close(watched) }
        input.resume()
        inputSource = input
    }

    /// A read source on the wake pipe (signals), on the main queue too.
    private func startWakeSource() {
        let wakeFD = wakePipe.read
        wakePipe.read = -1  // the source closes it once cancelled
        let wake = DispatchSource.makeReadSource(fileDescriptor: wakeFD, queue: .main)
        wake.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                if let self { self.wokenUp(wakeFD) } else { wake.cancel() }
            }
        }
        wake.setCancelHandler { close(wakeFD) }
        wake.resume()
        wakeSource = wake
    }

    func stopInputSources() {
        inputSource?.cancel()
        inputSource = nil
        if let wakeSource {
            wakeSource.cancel()  // closes the pipe's read end
        } else if wakePipe.read >= 0 {
            close(wakePipe.read)
        }
        wakeSource = nil
        wakePipe.read = -1
    }

    /// The input is readable: a key, or the terminal hung up.
    private func inputReady() {
        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        let hungUp = poll(&descriptor, 1, 0) > 0 && descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
        if drainInput() > 0 {
            emptyWakeUps = 0
        } else if hungUp || emptyWakeUps > 100 {
            // A hung-up terminal stays readable; stop listening to it.
            inputSource?.cancel()
            inputSource = nil
            onSignal?(SIGHUP)
        } else {
            emptyWakeUps += 1
        }
    }

    /// Reads every key curses has, without waiting (but an Escape waits
    /// `ESCDELAY`, 25 ms, for the rest of a sequence). Returns how many
    /// were read, delivered or not.
    @discardableResult
    func drainInput() -> Int {
        guard let inputWindow, let onEvent else { return 0 }
        var count = 0
        var code: wint_t = 0
        while isRunning, self.onEvent != nil {
            let result = wget_wch(inputWindow, &code)
            if result == ERR { break }
            count += 1
            if result == KEY_CODE_YES, Int32(bitPattern: code) == KEY_RESIZE {
                onEvent(.resize(resized()))
            } else if result == KEY_CODE_YES, Int32(bitPattern: code) == KEY_MOUSE {
                for event in mouseEvents() { onEvent(.mouse(event)) }
            } else if let event = KeyDecoder.event(result: result, code: Int32(bitPattern: code), mouse: { nil }) {
                if event == .key(.control("z")) && allowsSuspend {
                    suspend()
                } else {
                    onEvent(event)
                }
            }
        }
        return count
    }

    /// The mouse reports behind one KEY_MOUSE, oldest first: curses queues
    /// a burst of reports under one KEY_MOUSE, and getmouse pops the newest.
    private func mouseEvents() -> [MouseEvent] {
        var events: [MouseEvent] = []
        var report = MEVENT()
        while getmouse(&report) == OK {
            if let event = KeyDecoder.mouse(state: report.bstate, x: report.x, y: report.y) { events.append(event) }
        }
        return events.reversed()
    }

    /// The wake pipe has signal numbers: a new window size, or a request to
    /// end the program.
    private func wokenUp(_ fd: Int32) {
        var bytes = [UInt8](repeating: 0, count: 64)
        var signals: [Int32] = []
        while true {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            signals += bytes[..<n].map(Int32.init)
        }
        guard isRunning else { return }
        if isHandedOver {
            // The other program's size, stops and continues are its own.
        } else if signals.contains(SIGTSTP), allowsSuspend {
            suspend()
        } else if signals.contains(SIGCONT) && continuedFromOwnStop {
            continuedFromOwnStop = false
        } else if signals.contains(SIGCONT) {
            // Continued after a stop that was not ours (SIGSTOP): whatever
            // the shell wrote is on the screen, so everything is drawn again.
            resumed()
        } else if signals.contains(SIGWINCH) {
            windowChanged()
        }
        for signal in signals where !jobControlSignals.contains(signal) { onSignal?(signal) }
    }

    /// Suspends the program as Ctrl-Z does in a shell: gives the terminal
    /// back as it was (modes, main screen, cursor, mouse reporting off),
    /// stops the process group, and once continued (`fg`) takes the
    /// terminal again and delivers a `.resize` so that the next frame
    /// repaints every cell.
    public func suspend() {
        guard isRunning, !isHandedOver else { return }
        releaseTerminal()
        let continues = restoreState.pointee.continues
        Self.stopProcessGroup()
        // Its SIGCONT is still to come through the wake pipe; nothing to repaint twice.
        continuedFromOwnStop = restoreState.pointee.continues != continues
        // Continued. The shell may have changed the modes it wants back.
        var modes = termios()
        if tcgetattr(output, &modes) == 0 {
            shellModes = modes
            restoreState.pointee.termios = modes
            restoreState.pointee.has_termios = 1
        }
        resumed()
    }

    /// Puts the terminal back as it was before curses: what the restore
    /// sequence puts back, then the shell's modes.
    func releaseTerminal() {
        sb_restore_now(restoreState)
        endwin()
        if var modes = shellModes { tcsetattr(output, TCSADRAIN, &modes) }
    }

    /// Takes the terminal back after a stop and repaints everything.
    func resumed() {
        reset_prog_mode()
        configureAfterResume()
        restoreState.pointee.armed = 1
        var rows: Int32 = 0, columns: Int32 = 0
        if sb_get_winsize(output, &rows, &columns) == 0, rows > 0, columns > 0,
           rows != sb_lines() || columns != sb_cols() {
            resizeterm(rows, columns)
            untouchwin(inputWindow)
        }
        size = Size(width: Int(sb_cols()), height: Int(sb_lines()))
        lastFrame = nil
        clearok(sb_curscr(), true)
        onEvent?(.resize(size))
    }

    /// Tells curses the new size (it queues a KEY_RESIZE) and delivers it.
    /// A size that is back where curses has it after a storm of changes
    /// still repaints everything: the terminal may have cut or reflowed the
    /// screen at the sizes in between, which curses never saw.
    private func windowChanged() {
        var rows: Int32 = 0, columns: Int32 = 0
        guard sb_get_winsize(output, &rows, &columns) == 0, rows > 0, columns > 0 else { return }
        if rows != sb_lines() || columns != sb_cols() {
            resizeterm(rows, columns)
            // resizeterm touches every window; reading through a touched
            // window would refresh it.
            untouchwin(inputWindow)
        } else {
            lastFrame = nil
            onEvent?(.resize(size))
        }
        drainInput()
    }

    /// The size after a KEY_RESIZE; the next draw repaints everything.
    private func resized() -> Size {
        size = Size(width: Int(sb_cols()), height: Int(sb_lines()))
        lastFrame = nil
        return size
    }
}
