//! The real binary in a real terminal: tmux runs a shell, the test types
//! into it (`send-keys`) and reads the screen (`capture-pane`), as a
//! person would: open a profile, sort, search, drill down to stacks, go
//! back, look at the Trace pane, quit, and find the shell usable.
//!
//! Needs tmux (`.ci/run` installs it).

use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux server of our own (its own socket), killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn start(test: &str, width: u16, height: u16) -> Tmux {
        let socket = format!("profx-{test}-{}", std::process::id());
        let t = Tmux { socket };
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

    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket, "-f", "/dev/null"])
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

    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", "main"])
    }

    /// Waits until the screen shows `needle` (the app draws after each key).
    fn wait_for(&self, needle: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(needle) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(15),
                "waited for {needle:?}; the screen is:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
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
    t.keys(&["4"]);
    t.wait_for("No trace events");

    // Quit, and the shell works as before: echo, canonical mode, no
    // alternate screen left behind.
    t.keys(&["q"]);
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
    let dir = std::env::temp_dir().join(format!("profx-tmux-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
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
    let _ = std::fs::remove_dir_all(&dir);
}
