//! `profx diff BASE NEW` in a real terminal (issue 66), walked as a new
//! user would: tmux runs a shell, the test types into it and reads the
//! screen, waiting for text (never a fixed sleep). The comparison opens in
//! the app, sorts, shows shares, takes a step on both runs and undoes it,
//! shows the Call tree and the flame graph compared (BASE's widths too)
//! and NEW's Trace pane,
//! quits, and leaves the shell usable.
//!
//! Needs tmux (`.ci/run` installs it).

use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux server of our own, killed when dropped (its socket in a folder
/// that goes with it).
struct Tmux {
    socket: std::path::PathBuf,
    _dir: tempfile::TempDir,
}

impl Tmux {
    fn start(test: &str, width: u16, height: u16) -> Tmux {
        let dir = tempfile::Builder::new()
            .prefix(&format!("profx-{test}-"))
            .tempdir()
            .expect("a scratch folder");
        let t = Tmux {
            socket: dir.path().join("socket"),
            _dir: dir,
        };
        let (w, h) = (width.to_string(), height.to_string());
        t.run(&["new-session", "-d", "-s", "main", "-x", &w, "-y", &h, "sh"]);
        t.run(&["set-option", "-g", "status", "off"]);
        t
    }

    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(["-f", "/dev/null"])
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
        self.run(&["capture-pane", "-p", "-J", "-t", "main"])
    }

    /// Waits until the screen shows `needle` (the app draws after each key).
    fn wait_for(&self, needle: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(needle) {
                return screen;
            }
            // A bound on a hang, not on speed.
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "waited for {needle:?}; the screen is:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until the shell is the pane's foreground process again.
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
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .arg("kill-server")
            .output();
    }
}

fn fixture(rel: &str) -> String {
    format!("{}/tests/fixtures/diff/{rel}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn a_comparison_walked() {
    let t = Tmux::start("diff-walk", 100, 30);
    let bin = env!("CARGO_BIN_EXE_profx");
    let (base, new) = (fixture("xpp/base.prf"), fixture("xpp/new.prf"));
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

    // The Call tree compared: BASE's total beside NEW's, the change.
    t.keys(&["4"]);
    let s = t.wait_for("Base ms");
    assert!(s.contains("Δ ms") && s.contains("+10.000"), "{s}");

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
