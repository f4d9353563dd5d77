//! The real binary in a real terminal: tmux runs a shell, the test types
//! into it (`send-keys`) and reads the screen (`capture-pane`), as a
//! person would: open a profile, sort, search, drill down to stacks, go
//! back, look at the Trace pane, quit, and find the shell usable.
//!
//! Needs tmux (`.ci/run` installs it).

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux server of our own, killed when dropped. Its socket lives in a
/// folder that goes with it: a killed tmux 3.3 server leaves its socket
/// behind, and `-L` would leave one in /tmp/tmux-UID for every test run.
struct Tmux {
    socket: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

impl Tmux {
    fn start(test: &str, width: u16, height: u16) -> Tmux {
        let dir = scratch(&format!("tmux-{test}"));
        let t = Tmux {
            socket: dir.path().join("socket"),
            _dir: dir,
        };
        let size = (width.to_string(), height.to_string());
        t.run(&[
            "new-session",
            "-d",
            "-s",
            "main",
            "-x",
            &size.0,
            "-y",
            &size.1,
            "sh",
        ]);
        t.run(&["set-option", "-g", "status", "off"]);
        t
    }

    /// `tmux` talking to this server.
    fn command(&self) -> Command {
        let mut c = Command::new("tmux");
        c.arg("-S").arg(&self.socket).args(["-f", "/dev/null"]);
        c
    }

    fn run(&self, args: &[&str]) -> String {
        let out = self
            .command()
            .args(args)
            .output()
            .expect("tmux runs (apt-get install -y tmux)");
        assert!(
            out.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "main"];
        args.extend_from_slice(keys);
        self.run(&args);
    }

    fn type_text(&self, text: &str) {
        self.run(&["send-keys", "-t", "main", "-l", text]);
    }

    /// The screen with wrapped lines joined (`-J`): a message that wraps
    /// where the checkout's path is long still reads as one line.
    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-J", "-t", "main"])
    }

    /// Waits until the screen shows `needle` (the app draws after each key).
    fn wait_for(&self, needle: &str) -> String {
        self.wait_for_lines(needle)
    }

    /// Waits until a line of the screen is exactly `line` (trailing blanks
    /// aside): a shell's output, not the command line that asked for it.
    fn wait_for_line(&self, line: &str) -> String {
        self.wait_until(line, |screen| screen.lines().any(|l| l.trim_end() == line))
    }

    fn wait_for_lines(&self, needle: &str) -> String {
        self.wait_until(needle, |screen| screen.contains(needle))
    }

    /// Waits until the shell is the pane's foreground process again: keys
    /// typed while the app is still reading them would be the app's, as a
    /// loaded machine shows.
    fn wait_for_shell(&self) {
        let start = Instant::now();
        loop {
            let fg = self.run(&[
                "display-message",
                "-p",
                "-t",
                "main",
                "#{pane_current_command}",
            ]);
            if fg.trim() == "sh" {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "the app still runs: {fg}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn wait_until(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        let needle = what;
        loop {
            let screen = self.screen();
            if done(&screen) {
                return screen;
            }
            // A bound on a hang, not on speed: the debug build draws a
            // burst of 5,000 keys in several seconds, and on two cores the
            // other tests run beside it.
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "waited for {needle:?}; the screen is:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.command().arg("kill-server").output();
    }
}

/// A folder of one test's own, removed when dropped, a failing test's
/// too: tests run in parallel, and a run leaves nothing in the temporary
/// directory.
fn scratch(test: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("profx-{test}-"))
        .tempdir()
        .expect("a scratch folder")
}

fn fixture(rel: &str) -> String {
    format!("{}/tests/fixtures/{rel}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn open_sort_search_drill_back_trace_quit() {
    let t = Tmux::start("tour", 100, 30);
    let bin = env!("CARGO_BIN_EXE_profx");
    t.type_text(&format!("{bin} {}", fixture("plist/demo-orders.txt")));
    t.keys(&["Enter"]);

    // Open: the Functions pane, heaviest first.
    let s = t.wait_for("Functions 8/8");
    assert!(s.contains("sort: Incl ms ▼"), "{s}");
    assert!(s.contains("▶main"), "{s}");

    // Sort: s moves the sort to the next column, r reverses it.
    t.keys(&["s"]);
    t.wait_for("sort: Incl % ▼");
    t.keys(&["r"]);
    t.wait_for("sort: Incl % ▲");

    // Search: each key filters; Enter keeps the filter.
    t.keys(&["/"]);
    t.type_text("price");
    let s = t.wait_for("filter: price");
    assert!(s.contains("PriceOrder"), "{s}");
    assert!(!s.contains("LoadCustomers"), "filtered out:\n{s}");
    t.keys(&["Enter"]);

    // Drill down: Enter opens the stacks containing the function.
    t.keys(&["Enter"]);
    let s = t.wait_for("[PriceOrder(struct Order *)]");
    assert!(
        s.contains("stacks with PriceOrder"),
        "the breadcrumb says where:\n{s}"
    );

    // Back: the Functions pane as it was, filter and sort included.
    t.keys(&["BSpace"]);
    let s = t.wait_for("filter: price");
    assert!(s.contains("sort: Incl % ▲"), "{s}");
    assert!(!s.contains("stacks with"), "{s}");

    // Trace pane: a summary format says why it has no events.
    t.keys(&["6"]);
    t.wait_for("No trace events");

    // Quit, and the shell works as before: echo, canonical mode, no
    // alternate screen left behind.
    t.keys(&["q"]);
    t.wait_for_shell();
    t.type_text("stty -a | tr ' ' '\\n' | grep -x -e icanon -e echo | tr '\\n' ' '; echo; echo ok-$((40+2))");
    t.keys(&["Enter"]);
    let s = t.wait_for("ok-42");
    assert!(
        s.contains("icanon echo"),
        "the terminal is back in cooked mode:\n{s}"
    );
    assert!(
        !s.contains("Functions 8/8"),
        "the app's screen is gone:\n{s}"
    );
}

#[test]
fn a_hostile_file_name_cannot_retitle_the_terminal() {
    let folder = scratch("hostile-name");
    let dir = folder.path();
    let name = dir.join("evil\u{1b}]2;pwned\u{7}.txt");
    std::fs::copy(fixture("plist/hostile-names.txt"), &name).expect("copy");
    let t = Tmux::start("hostile", 100, 30);
    t.run(&["set-option", "-g", "set-titles", "on"]);
    t.run(&["set-option", "-g", "allow-rename", "on"]);
    let bin = env!("CARGO_BIN_EXE_profx");
    // The shell expands the glob, so no escape is typed on the command line.
    t.type_text(&format!("{bin} {}/evil*.txt", dir.display()));
    t.keys(&["Enter"]);
    let s = t.wait_for("Functions 1/1");
    assert!(
        s.contains("evil\\x1b]0;pwned\\x07"),
        "names shown escaped:\n{s}"
    );
    let title = t.run(&["display-message", "-p", "-t", "main", "#{pane_title}"]);
    assert!(!title.contains("pwned"), "the pane title changed: {title}");
    t.keys(&["q"]);
}

/// The bytes the app wrote to the terminal, captured raw by tmux
/// (`pipe-pane`), while a person tours every pane, the search prompt, the
/// finder and the help over a trace whose names hold every hostile trick.
/// Nothing a name holds may reach the terminal as it is.
#[test]
fn nothing_a_name_holds_reaches_the_terminal_raw() {
    let folder = scratch("raw");
    let dir = folder.path();
    let evil: &[u8] =
        b"E\x1b[2J\x1b]0;pwned\x07\x08\r\x00\x7f\xc2\x9b\xe2\x80\xae\xe2\x80\x8b\xff\xfeX";
    let mut trace = Vec::new();
    for (i, (op, name)) in [
        ("i", evil),
        ("i", &b"MAIN"[..]),
        ("o", b"MAIN"),
        ("o", evil),
    ]
    .iter()
    .enumerate()
    {
        trace.extend_from_slice(format!("1,{i},\"{op}\",\"").as_bytes());
        trace.extend_from_slice(name);
        trace.extend_from_slice(format!("\",{}\n", 10 + i).as_bytes());
    }
    let file = dir.join("evil.prf");
    std::fs::write(&file, &trace).expect("writes the trace");
    let raw = dir.join("raw.out");

    let t = Tmux::start("raw", 100, 30);
    let bin = env!("CARGO_BIN_EXE_profx");
    t.type_text(&format!("{bin} --format xpp {}", file.display()));
    t.keys(&["Enter"]);
    t.wait_for("Functions 2/2");
    t.run(&[
        "pipe-pane",
        "-o",
        "-t",
        "main",
        &format!("cat >> {}", raw.display()),
    ]);
    // Redraw everything once the pipe is open, then tour.
    t.keys(&["2"]);
    t.keys(&["1"]);
    // Each key is followed by a wait for what it shows, never a sleep.
    let selected = |screen: &str| screen.lines().find(|l| l.contains('▶')).map(str::to_string);
    let first = selected(&t.screen());
    t.keys(&["j"]);
    t.wait_until("the selection moved", |s| selected(s) != first);
    t.keys(&["Enter"]);
    t.wait_for("› stacks with");
    t.keys(&["BSpace"]);
    t.wait_until("back at the functions", |s| !s.contains("› stacks with"));
    for (key, crumb) in [
        ("3", "│ Stacks"),
        ("4", "│ Call tree"),
        ("5", "│ Flame"),
        ("6", "│ Trace"),
        ("7", "│ Info"),
        ("1", "│ Functions"),
    ] {
        t.keys(&[key]);
        t.wait_for(crumb);
    }
    t.keys(&["/"]);
    t.type_text("E");
    t.wait_for("filter: E");
    t.keys(&["Enter"]);
    t.keys(&["g"]);
    t.type_text("p");
    t.wait_for("> p");
    // An ESC read together with the next key is that key with Alt, as a
    // loaded machine shows: each overlay is seen gone before a key follows.
    t.keys(&["Escape"]);
    t.wait_until("the finder closed", |s| !s.contains("Jump to function"));
    // The help opens at the pane's keys (Functions').
    t.keys(&["?"]);
    t.wait_for("into callers, then callees");
    t.keys(&["Escape"]);
    t.wait_until("the help closed", |s| {
        !s.contains("into callers, then callees")
    });
    t.keys(&["q"]);
    t.wait_for_shell();
    t.type_text("echo done-$((1+1))");
    t.keys(&["Enter"]);
    t.wait_for("done-2");
    t.run(&["pipe-pane", "-t", "main"]);

    let out = std::fs::read(&raw).expect("tmux captured the output");
    assert!(
        out.len() > 1000,
        "the tour was captured ({} bytes)",
        out.len()
    );
    let text = String::from_utf8_lossy(&out);
    assert!(
        text.contains("E\\x1b[2J\\x1b]0;pwned\\x07"),
        "the name was drawn, escaped"
    );
    let has = |needle: &[u8]| out.windows(needle.len()).any(|w| w == needle);
    for (needle, what) in [
        (&b"\x1b]"[..], "an OSC sequence"),
        (b"\x07", "BEL"),
        (b"\x08", "backspace"),
        (b"\x00", "NUL"),
        (b"\x7f", "DEL"),
        // The app redraws by cells and never clears the whole screen in
        // this tour: a clear could only be the name's own CSI 2J.
        (b"\x1b[2J", "a clear-screen"),
        (b"\xc2\x9b", "a C1 CSI"),
        (b"\xe2\x80\xae", "a right-to-left override"),
        (b"\xe2\x80\x8b", "a zero-width space"),
        (b"\xff\xfe", "bytes that are not UTF-8"),
    ] {
        assert!(!has(needle), "the terminal received {what} raw");
    }
}

/// `e` in the real app: the filtered pane lands in a CSV file beside the
/// input, and the status line says where.
#[test]
fn e_exports_the_filtered_pane_beside_the_input() {
    let folder = scratch("export");
    let dir = folder.path();
    let input = dir.join("orders.txt");
    std::fs::copy(fixture("plist/demo-orders.txt"), &input).unwrap();
    let t = Tmux::start("export", 140, 30);
    let bin = env!("CARGO_BIN_EXE_profx");
    // Opened as a person would, from its folder.
    t.type_text(&format!("cd {} && {bin} orders.txt", dir.display()));
    t.keys(&["Enter"]);
    t.wait_for("Functions 8/8");
    t.keys(&["/"]);
    t.type_text("^Pr");
    t.wait_for("filter: ^Pr");
    t.keys(&["Enter", "e"]);
    t.wait_for("exported 3 functions to ./orders.txt.functions.csv");
    let out = dir.join("orders.txt.functions.csv");
    t.keys(&["q"]);
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines = text.lines();
    assert!(lines.next().unwrap().starts_with("name,module,calls,"));
    let names: Vec<&str> = lines.map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(
        names,
        [
            "ProcessOrders(struct Batch *)",
            "PriceOrder(struct Order *)",
            "PrintUsage(void)"
        ]
    );
}

/// The pid of the program the pane's shell is running now.
fn running_in(t: &Tmux) -> u32 {
    let shell = t.run(&["display-message", "-p", "-t", "main", "#{pane_pid}"]);
    let shell = shell.trim();
    let start = Instant::now();
    loop {
        let children = std::fs::read_to_string(format!("/proc/{shell}/task/{shell}/children"))
            .unwrap_or_default();
        if let Some(pid) = children.split_whitespace().next() {
            return pid.parse().unwrap();
        }
        assert!(start.elapsed() < Duration::from_secs(15), "nothing runs");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs `command` from the pane's shell so that the shell then says how it
/// ended and whether the terminal's settings are as they were before.
fn run_and_report(t: &Tmux, command: &str) {
    t.type_text(&format!(
        "A=$(stty -g); {command}; echo EXIT=$?; [ \"$A\" = \"$(stty -g)\" ] && echo SAME-TTY"
    ));
    t.keys(&["Enter"]);
}

/// tmux's own view of the pane: alternate screen and mouse reporting off.
fn assert_terminal_given_back(t: &Tmux, screen: &str) {
    assert!(screen.contains("SAME-TTY"), "settings restored:\n{screen}");
    let flags = t.run(&[
        "display-message",
        "-p",
        "-t",
        "main",
        "#{alternate_on} #{mouse_any_flag}",
    ]);
    assert_eq!(
        flags.trim(),
        "0 0",
        "alternate screen and mouse reporting off"
    );
}

#[test]
fn the_terminal_is_given_back_on_sigterm_sighup_and_sigquit() {
    let t = Tmux::start("signals", 100, 30);
    let bin = env!("CARGO_BIN_EXE_profx");
    for (sig, status) in [
        (libc::SIGTERM, "EXIT=143"),
        (libc::SIGHUP, "EXIT=129"),
        (libc::SIGQUIT, "EXIT=131"),
    ] {
        t.type_text("clear");
        t.keys(&["Enter"]);
        run_and_report(&t, &format!("{bin} {}", fixture("plist/demo-orders.txt")));
        t.wait_for("Functions 8/8");
        profx::sys::signals::send(running_in(&t), sig).expect("the app this test started");
        let s = t.wait_for(status);
        let s = if s.contains("SAME-TTY") {
            s
        } else {
            t.wait_for("SAME-TTY")
        };
        assert_terminal_given_back(&t, &s);
    }
}

/// The input is mapped: cut short while the Trace pane reads it, the app
/// names the file, exits 1 and gives the terminal back.
#[test]
fn a_file_cut_short_under_the_trace_pane_ends_with_a_message() {
    let folder = scratch("cut");
    let dir = folder.path();
    let path = dir.join("cut.prf");
    common::generated_trace(&path, 8 << 20, 50);
    let t = Tmux::start("cut", 100, 30);
    let bin = env!("CARGO_BIN_EXE_profx");
    run_and_report(&t, &format!("{bin} {}", path.display()));
    t.wait_for("Functions");
    t.keys(&["6"]);
    t.wait_for("Trace");
    t.keys(&["Enter"]);
    t.wait_for("events of cut.prf");
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(100)
        .unwrap();
    t.keys(&["End"]);
    let s = t.wait_for("EXIT=1");
    assert!(
        s.contains("cut.prf: the file changed while being read"),
        "{s}"
    );
    let s = if s.contains("SAME-TTY") {
        s
    } else {
        t.wait_for("SAME-TTY")
    };
    assert_terminal_given_back(&t, &s);
}

#[test]
fn a_terminal_that_cannot_show_the_app_gets_a_plain_message() {
    let t = Tmux::start("dumb", 100, 30);
    let bin = env!("CARGO_BIN_EXE_profx");
    let file = fixture("plist/demo-orders.txt");
    t.type_text(&format!("TERM=dumb {bin} {file}; echo EXIT=$?"));
    t.keys(&["Enter"]);
    let s = t.wait_for("EXIT=2");
    assert!(s.contains("TERM=dumb") && s.contains("profx report"), "{s}");
    // No controlling terminal to read keys from (setsid), input not a tty.
    // Its own marker: the first command's `EXIT=2` may still be on screen
    // until `clear` runs.
    t.type_text(&format!(
        "clear; setsid -w {bin} {file} < /dev/null; echo SECOND-EXIT=$?"
    ));
    t.keys(&["Enter"]);
    let s = t.wait_for("SECOND-EXIT=2");
    assert!(s.contains("no terminal to read keys from"), "{s}");
}

/// 5,000 `j` at once: every one is handled, none waits for another key.
#[test]
fn a_burst_of_keys_is_handled_whole() {
    let folder = scratch("burst");
    let dir = folder.path();
    let path = dir.join("many.txt");
    let mut text = String::from("1\t522\tProfile: Function timing\n");
    for i in 0..6000 {
        text.push_str(&format!("6\tT.EXE\tt.obj\t1\t1.000\t1.000\tf{i:04}\n"));
    }
    std::fs::write(&path, text).unwrap();
    let t = Tmux::start("burst", 100, 30);
    let bin = env!("CARGO_BIN_EXE_profx");
    t.type_text(&format!("{bin} {}", path.display()));
    t.keys(&["Enter"]);
    t.wait_for("▶f0000");
    t.type_text(&"j".repeat(5000));
    t.wait_for("▶f5000");
    t.keys(&["q"]);
}

/// A paste into the search prompt arrives as one string (bracketed paste)
/// and filters once: 100 KB come in at once, cut to a query's length.
#[test]
fn a_paste_into_the_search_prompt_filters_once() {
    let t = Tmux::start("paste", 100, 30);
    let bin = env!("CARGO_BIN_EXE_profx");
    t.type_text(&format!("{bin} {}", fixture("plist/demo-orders.txt")));
    t.keys(&["Enter"]);
    t.wait_for("Functions 8/8");
    t.keys(&["/"]);
    let folder = scratch("paste");
    let dir = folder.path();
    let pasted = dir.join("paste.txt");
    std::fs::write(&pasted, format!("Price{}", "z".repeat(100_000))).unwrap();
    t.run(&["load-buffer", &pasted.to_string_lossy()]);
    let started = Instant::now();
    t.run(&["paste-buffer", "-p", "-t", "main"]);
    t.wait_for("Functions 0/8");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "a paste is one filtering"
    );
    t.keys(&["Escape"]);
    t.wait_for("Functions 8/8");
    t.keys(&["q"]);
}

/// The Call tree walked as a new user would: the tab, open a row, the hot
/// path, everything open, a search that opens the paths to its matches,
/// bottom-up, Enter to the function and back, quit.
#[test]
fn the_call_tree_walked() {
    let t = Tmux::start("tree", 100, 30);
    run_and_report(&t, env!("CARGO_BIN_EXE_profx"));
    t.wait_for("Functions 10/10");
    t.keys(&["4"]);
    let s = t.wait_for("Call tree · top-down · 7 rows");
    assert!(s.contains("▾ (main)"), "the root open:\n{s}");
    assert!(s.contains("▸ FNPRICE"), "its callees, heaviest first:\n{s}");
    t.keys(&["Down", "p"]);
    t.wait_for("▾ FNPRICE");
    t.keys(&["Home", "*"]);
    let s = t.wait_for("Call tree · top-down · 13 rows");
    assert!(s.contains("FNROUND"), "{s}");
    t.keys(&["Left"]);
    t.wait_for("Call tree · top-down · 1 row ");
    t.keys(&["/"]);
    t.type_text("round");
    let s = t.wait_for("search: round");
    assert!(s.contains("1 node match"), "{s}");
    assert!(s.contains("▾ FNDISCOUNT"), "the path to it is open:\n{s}");
    t.keys(&["Enter", "i"]);
    let s = t.wait_for("bottom-up");
    assert!(s.contains("Of func%"), "{s}");
    t.keys(&["Enter"]);
    t.wait_for("Call tree › function FNROUND");
    t.keys(&["BSpace"]);
    t.wait_for("bottom-up");
    t.keys(&["q"]);
    t.wait_for("EXIT=0");
    let s = t.wait_for_line("SAME-TTY");
    assert_terminal_given_back(&t, &s);
}

/// The butterfly, the Call tree and the Flame pane of a PLIST file whose
/// stacks cover part of its functions' time (issue 51), as a new user
/// reads them: the butterfly's columns named and its `(root)`, `(self)`
/// and `(unlisted)` rows; the same `(no call path)` and `(unlisted)` nodes,
/// with the same totals, in the tree and the flame.
#[test]
fn one_tree_walked_through_the_butterfly_the_tree_and_the_flame() {
    let t = Tmux::start("one-tree", 120, 34);
    let bin = env!("CARGO_BIN_EXE_profx");
    run_and_report(
        &t,
        &format!("{bin} {}", fixture("plist/partial-stacks.txt")),
    );
    let s = t.wait_for("Callees of main loop");
    assert!(s.contains("% incl"), "the share's base is named:\n{s}");
    for row in ["(root)", "(self)", "(unlisted)", "draw"] {
        assert!(s.contains(row), "{row} in the butterfly:\n{s}");
    }
    // draw: 60 of its 80 ms (3 of its 5 calls) from main loop, the rest
    // from no caller: shares of its time, 75 % and 25 % (not 60 and 40).
    t.keys(&["Down"]);
    let s = t.wait_for("Callers of draw");
    let row = |cells: &[&str]| s.lines().any(|l| cells.iter().all(|c| l.contains(c)));
    assert!(row(&["main loop", "60.000", " 3 ", "75.00"]), "{s}");
    assert!(row(&["(root)", "20.000", " 2 ", "25.00"]), "{s}");
    t.keys(&["4"]);
    let s = t.wait_for("Call tree · top-down");
    assert!(s.contains("(no call path)"), "{s}");
    t.keys(&["Home", "*"]);
    let s = t.wait_for("(unlisted)");
    assert!(
        s.contains("100.000"),
        "main loop totals what its stack states:\n{s}"
    );
    t.keys(&["5"]);
    let s = t.wait_for("┌ Flame");
    assert!(
        s.contains("(no call path)"),
        "the flame draws the same root:\n{s}"
    );
    t.keys(&["q"]);
    t.wait_for("EXIT=0");
    let s = t.wait_for_line("SAME-TTY");
    assert_terminal_given_back(&t, &s);
}

/// `y` copies through OSC 52: tmux, told to take the terminal's clipboard
/// escapes, keeps the copied text in a paste buffer (issue 52).
#[test]
fn y_copies_the_selected_path_through_osc_52() {
    let t = Tmux::start("copy", 120, 34);
    t.run(&["set-option", "-g", "set-clipboard", "on"]);
    let bin = env!("CARGO_BIN_EXE_profx");
    run_and_report(
        &t,
        &format!("{bin} {}", fixture("plist/partial-stacks.txt")),
    );
    t.wait_for("Callees of main loop");
    t.keys(&["4"]);
    t.wait_for("Call tree · top-down");
    t.keys(&["Home", "*", "Down", "y"]);
    let s = t.wait_for("copied to the clipboard");
    assert!(s.contains("main loop > draw"), "{s}");
    let start = Instant::now();
    let copied = loop {
        // No buffer yet is an error of tmux's: asked again.
        let out = t.command().arg("show-buffer").output().expect("tmux runs");
        let buffer = String::from_utf8_lossy(&out.stdout).into_owned();
        if buffer == "main loop > draw" {
            break buffer;
        }
        // A bound on a hang, as `wait_until`'s.
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "buffer: {buffer:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(copied, "main loop > draw");
    t.keys(&["q"]);
    t.wait_for("EXIT=0");
    let s = t.wait_for_line("SAME-TTY");
    assert_terminal_given_back(&t, &s);
}

/// The Flame pane as a new user meets it: the top frame selected, down to
/// the heaviest callee, right to its neighbour, zoom in and out, a search
/// that says the matching frames' share, quit.
#[test]
fn the_flame_graph_walked() {
    let t = Tmux::start("flame", 100, 30);
    run_and_report(&t, env!("CARGO_BIN_EXE_profx"));
    t.wait_for("Functions 10/10");
    t.keys(&["5"]);
    let s = t.wait_for("(main) · 2,337.474 ms · 100.00% of the total");
    assert!(s.contains("FNPRICE"), "{s}");
    t.keys(&["Down"]);
    t.wait_for("FNPRICE · 786.262 ms · 33.64% of the total · 33.64% of its caller");
    t.keys(&["Right"]);
    t.wait_for("FNREADCUST · ");
    t.keys(&["Enter"]);
    t.wait_for("Flame · zoomed on FNREADCUST");
    t.keys(&["Escape"]);
    t.wait_for("┌ Flame ──");
    // x merges FNREADCUST into the query (the header says so, the graph
    // is drawn anew); X clears the query; f makes FNPRICE's sandwich.
    t.keys(&["x"]);
    t.wait_for("br · merge FNREADCUST");
    t.keys(&["X"]);
    t.wait_for("the whole profile again");
    t.keys(&["Home", "Down", "f"]);
    let s = t.wait_for("Flame · sandwich of FNPRICE");
    assert!(s.contains("of the function's time"), "{s}");
    t.keys(&["f"]);
    t.wait_for("┌ Flame ──");
    t.keys(&["/"]);
    t.type_text("fntax");
    t.wait_for("matches hold 17.21%");
    t.keys(&["Enter", "q"]);
    t.wait_for("EXIT=0");
    let s = t.wait_for_line("SAME-TTY");
    assert_terminal_given_back(&t, &s);
}

/// The query as a new user meets it on a two-thread trace: a transform
/// (its breadcrumb in the header, its function gone from the Functions
/// pane), `u` undoes it, `.` lists the transforms, the threads list (a
/// table: it searches and exports as the others) chooses one thread (its
/// numbers in every pane), `U` every thread again.
#[test]
fn a_query_walked_transform_undo_threads() {
    let folder = scratch("query");
    let dir = folder.path();
    std::fs::copy(fixture("xpp/two-threads.prf"), dir.join("two.prf")).expect("copy");
    let t = Tmux::start("query", 140, 30);
    let bin = env!("CARGO_BIN_EXE_profx");
    run_and_report(&t, &format!("cd {} && {bin} two.prf", dir.display()));
    t.wait_for("Functions 4/4");
    t.keys(&["d"]);
    let s = t.wait_for("all threads › drop MAIN");
    assert!(s.contains("dropped 13.000 ms"), "{s}");
    t.wait_for("Functions 2/2");
    t.keys(&["u"]);
    t.wait_for("undone: drop MAIN");
    // The selection stayed on its function, WORKER, MAIN being gone.
    t.wait_for("Functions 4/4");
    t.keys(&["."]);
    t.wait_for("Transform the query");
    t.wait_for("merge WORKER");
    // `.` again closes it (Escape then H at once would read as Alt-H).
    t.keys(&["."]);
    t.wait_until("the menu closed", |s| !s.contains("Transform the query"));
    t.keys(&["H"]);
    t.wait_for("Threads 2/2 · sort: Busy ms ▼");
    t.wait_for("showing all threads");
    // Searched by the heaviest function, exported as shown, cleared.
    t.keys(&["/"]);
    t.type_text("WORK");
    t.keys(&["Enter"]);
    t.wait_for("Threads 1/2");
    t.keys(&["e"]);
    t.wait_for("exported 1 thread to ./two.prf.threads.csv");
    let csv = std::fs::read_to_string(dir.join("two.prf.threads.csv")).expect("written");
    assert!(
        csv.starts_with("id,first_ms,last_ms,busy_ms,events,calls,heaviest_ms,heaviest"),
        "{csv}"
    );
    assert_eq!(
        csv.lines().nth(1).and_then(|l| l.split(',').next()),
        Some("2"),
        "{csv}"
    );
    t.keys(&["Escape"]);
    t.wait_for("Threads 2/2");
    t.keys(&["Down", "Enter"]);
    let s = t.wait_for("xpp · thread 2");
    assert!(!s.contains("Threads 2/2"), "the list closed:\n{s}");
    t.wait_for("Functions 2/2");
    // The Trace pane: thread 2's four events, from 1 ms to 12 ms.
    t.keys(&["6"]);
    t.wait_for("4    1.000  12.000");
    // Enter with no thread newly chosen shows the one under the cursor.
    t.keys(&["H", "Up", "Enter"]);
    t.wait_for("xpp · thread 1");
    t.keys(&["U"]);
    t.wait_for("the whole profile again");
    t.wait_for("8    0.000  13.000");
    t.keys(&["1"]);
    t.wait_for("Functions 4/4");
    t.keys(&["q"]);
    t.wait_for("EXIT=0");
    let s = t.wait_for_line("SAME-TTY");
    assert_terminal_given_back(&t, &s);
}

/// A time range walked (issue 65): `v` on a call among a packet's events
/// asks its span, every pane follows (the crumbs, the header's total, the
/// Functions' calls), `u` takes it off; on the Timeline `v`, `v`, `Enter`
/// asks a range marked by the cursor and `Esc` backs out of it.
#[test]
fn a_range_walked_from_the_events_and_the_timeline() {
    let t = Tmux::start("range", 140, 30);
    let bin = env!("CARGO_BIN_EXE_profx");
    run_and_report(&t, &format!("{bin} {}", fixture("xpp/two-threads.prf")));
    t.wait_for("Functions 4/4");
    t.wait_for("24.000 ms summed over 2 threads");
    // WAITFOR's return, the packet's sixth event: its call's span.
    t.keys(&["6", "Enter"]);
    t.wait_for("WAITFOR");
    t.keys(&["Down", "Down", "Down", "Down", "Down", "v"]);
    t.wait_for("all threads › 2.000–10.000 ms");
    t.wait_for("16.000 ms summed over 2 threads");
    t.keys(&["1"]);
    let s = t.wait_for("Functions 4/4");
    let main = s
        .lines()
        .find(|l| l.contains("MAIN"))
        .unwrap_or_default()
        .to_string();
    assert!(
        main.contains(" 0 "),
        "MAIN's one call entered before 2 ms:\n{s}"
    );
    t.keys(&["u"]);
    t.wait_for("undone: 2.000–10.000 ms");
    t.wait_for("24.000 ms summed over 2 threads");
    // The Timeline: a range marked by the cursor, asked, backed out.
    t.keys(&["8"]);
    t.wait_for("thread 1");
    t.keys(&["Right", "Right", "Right", "Right", "v"]);
    t.wait_for("range from");
    t.keys(&[
        "Right", "Right", "Right", "Right", "Right", "Right", "Right", "Right", "v",
    ]);
    t.wait_for("Enter asks it");
    t.keys(&["Enter"]);
    let s = t.wait_for("all threads › ");
    assert!(
        !s.contains("24.000 ms summed"),
        "the range cut the total:\n{s}"
    );
    t.keys(&["Escape"]);
    t.wait_for("the whole run");
    t.wait_for("24.000 ms summed over 2 threads");
    t.keys(&["q"]);
    t.wait_for("EXIT=0");
    let s = t.wait_for_line("SAME-TTY");
    assert_terminal_given_back(&t, &s);
}

/// The Flame pane's time order on a two-thread run, as a new user reads
/// it: `t`, down to the longest call, along the row, zoom on one order,
/// the worker's band, back to the graph, quit.
#[test]
fn the_flame_chart_walked() {
    let t = Tmux::start("chart", 100, 30);
    let bin = env!("CARGO_BIN_EXE_profx");
    run_and_report(&t, &format!("{bin} {}", fixture("xpp/orders-run.prf")));
    t.wait_for("Functions 9/9");
    t.keys(&["5", "t"]);
    let s = t.wait_for("MAIN · 91.000 ms · 0.000 ms–91.000 ms · thread 1");
    assert!(s.contains("── thread 2 · 7 calls"), "{s}");
    t.keys(&["Down"]);
    t.wait_for("SAVEORDER · 23.000 ms");
    t.keys(&["Left", "Enter"]);
    t.wait_for("52.000 ms–64.000 ms (Esc: out)");
    t.keys(&["Down"]);
    t.wait_for("FNPRICE · 10.000 ms · 53.000 ms–63.000 ms · thread 1 · 83.33% of its caller");
    t.keys(&["Escape"]);
    t.wait_for("┌ Flame · time order (t: graph) ──");
    t.keys(&["t"]);
    t.wait_for("┌ Flame ──");
    t.keys(&["q"]);
    t.wait_for("EXIT=0");
    let s = t.wait_for_line("SAME-TTY");
    assert_terminal_given_back(&t, &s);
}

/// A large export in the app as a person meets it: the footer counts the
/// rows being written, `Esc` cancels and nothing is left in the folder;
/// keys move while another runs, and `q` cancels it and quits.
#[test]
fn a_large_export_counts_its_rows_and_cancels() {
    let folder = scratch("big-export");
    let dir = folder.path();
    let path = dir.join("big.prf");
    common::generated_trace(&path, 48 << 20, 2000);
    let t = Tmux::start("big-export", 120, 30);
    let bin = env!("CARGO_BIN_EXE_profx");
    run_and_report(&t, &format!("{bin} {}", path.display()));
    t.wait_for("Functions");
    t.keys(&["6", "Enter"]);
    t.wait_for("events of big.prf");
    t.keys(&["e"]);
    t.wait_for("events · Esc cancels");
    t.keys(&["Escape"]);
    t.wait_for("export cancelled: no file written");
    let left: Vec<_> = std::fs::read_dir(dir).unwrap().collect();
    assert_eq!(left.len(), 1, "only the input: {left:?}");
    // Keys work while one runs, and q cancels it and quits.
    t.keys(&["e"]);
    t.wait_for("events · Esc cancels");
    t.keys(&["Down"]);
    t.wait_for("▶        1 ");
    t.keys(&["q"]);
    t.wait_for("EXIT=0");
    let s = t.wait_for_line("SAME-TTY");
    assert_terminal_given_back(&t, &s);
}

/// Issue 53's walk at 80×24, as a new user reads it: a VS call tree of
/// tens of billions of ms keeps every digit (the tree in seconds, the
/// header whole), a long method's name keeps its method, a trace's Lines
/// pane says what each line called, and `e` in the Call tree writes its
/// paths as folded stacks beside the input.
#[test]
fn digits_names_and_what_a_line_called_at_80_columns() {
    let folder = scratch("digits");
    let dir = folder.path();
    let huge = dir.join("huge-times.csv");
    std::fs::copy(fixture("vs-csv/huge-times.csv"), &huge).expect("copy");
    let t = Tmux::start("digits", 80, 24);
    run_and_report(
        &t,
        &format!("{} {}", env!("CARGO_BIN_EXE_profx"), huge.display()),
    );
    let s = t.wait_for("Functions 3/3");
    assert!(
        s.contains("28,114,679,415.000 ms"),
        "the header's total, whole:\n{s}"
    );
    t.keys(&["4"]);
    // The frame line is drawn once the tree's first row is selected,
    // which a loaded machine may show a frame after the header: wait for
    // it rather than read the first frame that has the heading.
    t.wait_for("Total s");
    let s = t.wait_for("▶ Raytracer.Program.Main(string[])");
    assert!(
        s.contains("28,114,679.415"),
        "the tree in seconds, every digit:\n{s}"
    );
    assert!(
        s.contains("…Program.Main(…)"),
        "the class and method kept:\n{s}"
    );
    assert!(
        s.contains("▶ Raytracer.Program.Main(string[])"),
        "the whole name on the frame:\n{s}"
    );
    t.keys(&["e"]);
    // A long answer comes in a box the next key closes.
    let s = t.wait_for("any key closes it");
    assert!(s.contains("folded"), "{s}");
    let folded = std::fs::read_to_string(dir.join("huge-times.csv.tree.folded")).expect("written");
    assert!(
        folded.lines().any(|l| l.contains("Main(string[])")),
        "{folded}"
    );
    t.keys(&["Escape"]);
    t.wait_for("/ search");
    t.keys(&["q"]);
    t.wait_for("EXIT=0");
    let trace = Tmux::start("called", 80, 24);
    let bin = env!("CARGO_BIN_EXE_profx");
    run_and_report(&trace, &format!("{bin} {}", fixture("xpp/orders-run.prf")));
    trace.wait_for("Functions");
    trace.keys(&["2"]);
    let s = trace.wait_for("Called");
    assert!(
        s.contains("MAIN, WORKER"),
        "a line that called two functions:\n{s}"
    );
    assert!(!s.contains(" Function "), "the caller shown once:\n{s}");
    trace.keys(&["q"]);
    let s = trace.wait_for_line("SAME-TTY");
    assert_terminal_given_back(&trace, &s);
}

/// A trace of two threads, thread 2 first, 1,500 calls of FETCH on each:
/// 6,004 events, 3,000 calls, numbers that show whether they are grouped.
fn walk_trace(dir: &std::path::Path) -> std::path::PathBuf {
    let mut lines = vec!["2,0.0,\"i\",\"WORKER\",1".to_string()];
    lines.push("1,1.0,\"i\",\"MAIN\",1".into());
    let mut t = 2;
    for _ in 0..1500 {
        for (thread, line) in [(2, 12), (1, 30)] {
            lines.push(format!("{thread},{t}.0,\"i\",\"FETCH\",{line}"));
            lines.push(format!("{thread},{}.0,\"o\",\"FETCH\"", t + 1));
            t += 2;
        }
    }
    lines.push(format!("1,{t}.0,\"o\",\"MAIN\""));
    lines.push(format!("2,{}.0,\"o\",\"WORKER\"", t + 1));
    let path = dir.join("walk.prf");
    std::fs::write(&path, lines.join("\n") + "\n").expect("writes the trace");
    path
}

/// Issue 64's walk, as a new user takes it at `width`×`height`: open a
/// trace, every pane from 1 to 7 (each its title, its counts grouped),
/// the help, the `.` menu, quit, and the terminal given back.
fn a_new_users_walk(width: u16, height: u16) {
    let folder = scratch(&format!("walk-{width}"));
    let dir = folder.path();
    walk_trace(dir);
    let t = Tmux::start(&format!("walk-{width}"), width, height);
    let bin = env!("CARGO_BIN_EXE_profx");
    run_and_report(&t, &format!("cd {} && {bin} walk.prf", dir.display()));
    // A capture can land mid-frame (the title drawn, the rows not yet):
    // the first frame is whole once FETCH's calls show, grouped.
    let s = t.wait_until("FETCH's calls, grouped", |s| {
        s.contains("Functions 3/3") && s.contains("3,000")
    });
    assert!(s.contains("12,004.000 ms"), "the header's total:\n{s}");
    // Each pane by its number, its title and a count of its own.
    for (key, title, count) in [
        ("2", "┌ Lines 3/3", "1,500"),
        ("3", "┌ Stacks 4/4", "1,500"),
        ("4", "┌ Call tree · top-down · 4 rows", "1,500"),
        ("5", "┌ Flame", "6,001.000 ms"),
        ("6", "┌ Trace 1/1", "6,004"),
        ("7", "┌ Info ", "6,004"),
        ("1", "┌ Functions 3/3", "3,000"),
    ] {
        t.keys(&[key]);
        let s = t.wait_for(title);
        let s = if s.contains(count) {
            s
        } else {
            t.wait_for(count)
        };
        for plain in ["6004", "3000", "1500"] {
            assert!(!s.contains(plain), "{plain} ungrouped in pane {key}:\n{s}");
        }
        if key == "7" {
            let events = s.lines().find(|l| l.contains("events"));
            assert!(
                events.is_some_and(|l| l.contains("6,004")),
                "Info's events:\n{s}"
            );
        }
    }
    t.keys(&["?"]);
    t.wait_for("Keys · Esc closes");
    t.keys(&["Escape"]);
    t.wait_until("the help closed", |s| !s.contains("Keys · Esc closes"));
    t.keys(&["."]);
    let s = t.wait_for("Transform the query");
    assert!(s.contains("merge WORKER"), "{s}");
    t.keys(&["."]);
    t.wait_until("the menu closed", |s| !s.contains("Transform the query"));
    t.keys(&["q"]);
    t.wait_for("EXIT=0");
    let s = t.wait_for_line("SAME-TTY");
    assert!(!s.contains("panicked"), "{s}");
    assert_terminal_given_back(&t, &s);
}

#[test]
fn a_new_users_walk_at_80_columns() {
    a_new_users_walk(80, 24);
}

#[test]
fn a_new_users_walk_at_200_columns() {
    a_new_users_walk(200, 60);
}

/// The source view (issue 67) as a new user finds it: the Lines pane's
/// footer offers `o`; `o` opens the line's file found under the profile's
/// folder, its cost in the margin; `}` steps to a costly line; a file not
/// found says where it looked and which option adds a place; `Backspace`
/// leaves; a `--source-map` finds a renamed tree.
#[test]
fn the_source_view_walked() {
    let t = Tmux::start("source", 100, 30);
    let profile = fixture("source/plist/line-counting.txt");
    run_and_report(&t, &format!("{} {profile}", env!("CARGO_BIN_EXE_profx")));
    t.wait_for("Functions");
    t.keys(&["2"]);
    let s = t.wait_for("o source");
    assert!(s.contains("Lines 6/6"), "{s}");
    t.keys(&["o"]);
    t.wait_for("Source · C:\\code\\ProfTest\\ProfTest.cpp");
    // The footer is drawn last: once it names the source view's keys, the
    // frame is whole (a capture can land mid-frame).
    let s = t.wait_for("costly line");
    assert!(
        s.contains("Source · C:\\code\\ProfTest\\ProfTest.cpp"),
        "{s}"
    );
    assert!(s.contains("found at "), "{s}");
    assert!(s.contains("604   50.1%      7      x += i;"), "{s}");
    assert!(s.contains("{} costly line"), "{s}");
    t.keys(&["{"]);
    t.wait_for("Lines › source ProfTest.cpp");
    t.keys(&["BSpace"]);
    t.wait_for("Lines 6/6");
    t.keys(&["Down", "Down", "Down", "o"]);
    let s = t.wait_for("Source · C:\\code\\ProfTest\\Missing.cpp");
    assert!(s.contains("not found: looked in "), "{s}");
    assert!(s.contains("add a place: --source DIR"), "{s}");
    t.keys(&["q"]);
    t.wait_for("EXIT=0");
    let s = t.wait_for_line("SAME-TTY");
    assert_terminal_given_back(&t, &s);
    t.wait_for_shell();
    t.keys(&["C-l"]);
    let renamed = fixture("source/renamed/util-lines.txt");
    let tree = fixture("source/renamed-tree/app");
    run_and_report(
        &t,
        &format!(
            "{} {renamed} --source-map 'C:\\build\\app={tree}'",
            env!("CARGO_BIN_EXE_profx")
        ),
    );
    t.wait_for("Functions");
    t.keys(&["2", "o"]);
    let s = t.wait_for("Source · C:\\build\\app\\lib\\util.c");
    assert!(s.contains("7   70.0%      2    int s = n * 2;"), "{s}");
    t.keys(&["q"]);
    t.wait_for("EXIT=0");
}

/// `profx diff BASE NEW` walked as a new user would (issue 66): the
/// comparison opens in the app, sorts, shows shares, takes a step on both
/// runs and undoes it, shows the Call tree and the flame graph compared
/// (BASE's widths too) and NEW's Trace pane, quits, and leaves the shell
/// usable.
#[test]
fn a_comparison_walked() {
    let t = Tmux::start("diff-walk", 100, 30);
    let bin = env!("CARGO_BIN_EXE_profx");
    let (base, new) = (fixture("diff/xpp/base.prf"), fixture("diff/xpp/new.prf"));
    t.type_text(&format!("{bin} diff {base} {new}"));
    t.keys(&["Enter"]);

    // Open: the comparison, largest change of inclusive time first.
    let s = t.wait_for("Functions compared 10");
    assert!(s.contains("base.prf (xpp) → new.prf (xpp)"), "{s}");
    assert!(s.contains("sort: Δ incl ms ▼"), "{s}");
    assert!(s.contains("▶DECODE"), "{s}");
    assert!(s.contains("+19.000"), "the change is signed:\n{s}");
    assert!(s.contains("+ slower (red)"), "the legend:\n{s}");

    // Shares of each run's total, and back.
    t.keys(&["%"]);
    t.wait_for("shares of each run's total ─");
    t.keys(&["%"]);
    t.wait_for("absolute values ─");

    // A step on both runs: drop the selected DECODE (NEW's only), which
    // is left out of BASE, said; u undoes it.
    t.keys(&["d"]);
    let s = t.wait_for("drop DECODE");
    assert!(s.contains("Functions compared 9"), "{s}");
    t.keys(&["u"]);
    t.wait_for("Functions compared 10");

    // The butterfly compared: Enter goes into DECODE's callers (FETCH,
    // NEW's edge only); Enter on FETCH walks to it, Backspace back.
    t.keys(&["Enter"]);
    let s = t.wait_for("Callers of DECODE");
    assert!(s.contains("FETCH") && s.contains("new"), "{s}");
    t.keys(&["Enter"]);
    t.wait_for("Callers of FETCH");
    t.keys(&["BSpace"]);
    t.wait_for("Callers of DECODE");
    t.keys(&["BSpace"]);

    // The Call tree compared: BASE's total beside NEW's, the change, and
    // PARSE, the path only BASE has, as a gone row.
    t.keys(&["4"]);
    // The header row can be captured before the rows under it are drawn:
    // the frame is whole once the root's change shows.
    let s = t.wait_until("the compared tree's rows", |s| {
        s.contains("Base ms") && s.contains("+10.000")
    });
    assert!(s.contains("Δ ms"), "{s}");
    t.keys(&["E"]);
    // The gone row whole: a capture can catch it before its change is
    // drawn.
    t.wait_until("PARSE's gone row with its change", |s| {
        s.lines()
            .any(|l| l.contains("PARSE · gone") && l.contains("-19.000"))
    });

    // The flame graph: the selected frame's change, signed.
    t.keys(&["5"]);
    t.wait_for("Δ +10.000 ms NEW vs BASE");
    // b: BASE's widths (PARSE, gone from NEW, is drawn), and back.
    t.keys(&["b"]);
    let s = t.wait_for("BASE's widths, red more in NEW");
    assert!(s.contains("PARSE"), "{s}");
    t.keys(&["b"]);
    t.wait_for("NEW's widths, red more than BASE");

    // The Trace pane is NEW's, and says so.
    t.keys(&["6"]);
    t.wait_for("NEW's events only");

    t.keys(&["q"]);
    t.wait_for_shell();
    t.type_text("echo ok-$((40+2))");
    t.keys(&["Enter"]);
    let s = t.wait_for("ok-42");
    assert!(
        !s.contains("Functions compared"),
        "the app's screen is gone:\n{s}"
    );
}

/// Issue 68: `profx --follow` on a trace the writer script has not
/// started yet: it waits, goes live as records come (the sort chosen kept
/// while numbers change), and `L` stops following with the trace read
/// whole.
#[test]
fn a_trace_followed_while_it_is_written() {
    let t = Tmux::start("follow", 120, 30);
    let dir = scratch("follow-trace");
    let trace = dir.path().join("T.PRF");
    let trace_s = trace.to_string_lossy().into_owned();
    let bin = env!("CARGO_BIN_EXE_profx");
    t.type_text(&format!("{bin} --follow {trace_s}"));
    t.keys(&["Enter"]);
    t.wait_for("● live, waiting: no such file yet");
    let mut writer = Command::new("python3")
        .args(["scripts/grow_trace.py", &trace_s, "--format", "deldbe"])
        .args(["--seconds", "4", "--rate", "3000", "--packet-every", "4000"])
        .args(["--flush-every", "200", "--cut"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the writer runs");
    let s = t.wait_for("Functions 40/40");
    assert!(s.contains("● live"), "{s}");
    // A sort chosen while the numbers change stays chosen.
    t.keys(&["s"]);
    let sorted = t.wait_for("sort: Calls ▼");
    assert!(sorted.contains("● live"), "{sorted}");
    assert!(writer.wait().expect("the writer ends").success());
    t.keys(&["L"]);
    let s = t.wait_for("stopped following: the trace read whole");
    assert!(s.contains("not following (L goes on)"), "{s}");
    assert!(s.contains("sort: Calls ▼"), "{s}");
    t.keys(&["q"]);
    t.wait_for_shell();
}
