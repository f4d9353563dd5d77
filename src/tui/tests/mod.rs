//! The app driven without a terminal: `App::update` action by action
//! (update.rs) and whole screens rendered into ratatui's `TestBackend`
//! and compared with reviewed insta snapshots (screens.rs).

mod screens;
mod update;

use super::App;
use crate::load::{Input, LoadOptions, load_inputs};
use crate::model::Profile;
use ratatui::layout::Rect;

pub fn demo_profile() -> Profile {
    load_inputs(&[crate::demo::input()], &LoadOptions::default()).expect("the demo loads")
}

pub fn app_of(p: Profile, title: &str, w: u16, h: u16) -> App {
    App::new(p, title, Rect::new(0, 0, w, h), true)
}

pub fn demo(w: u16, h: u16) -> App {
    app_of(demo_profile(), "orders.prof (demo)", w, h)
}

/// A profile from a fixture of the repository, by a path relative to the
/// package (cargo runs tests there), so screens naming the source do not
/// depend on where the checkout is.
pub fn fixture(rel: &str) -> Profile {
    let path = format!("tests/fixtures/{rel}");
    crate::load::load_paths(&[path], &LoadOptions::default()).expect("the fixture loads")
}

/// A fixture loaded with its calls in time order (`LoadOptions::timeline`),
/// as the app loads a trace for its flame chart.
pub fn fixture_timed(rel: &str) -> Profile {
    let path = format!("tests/fixtures/{rel}");
    let opts = LoadOptions {
        timeline: true,
        ..LoadOptions::default()
    };
    crate::load::load_paths(&[path], &opts).expect("the fixture loads")
}

/// A PLIST profile whose names hold escape sequences, control characters,
/// bidi marks, wide and combining characters.
pub fn hostile() -> Profile {
    let evil = "evil\u{1b}]0;pwned\u{7}\u{1b}[2J\u{202e}name\u{8}\u{7f}";
    let wide = "表示関数_wide";
    let combining = "cafe\u{301}_combining";
    let text = format!(
        "0\t1.10\tMicrosoft PLIST\n\
         1\t522\tFunction timing\n\
         2\t100.000\t0.000\t3\n\
         6\tt.exe\tt.obj\t1\t10.000\t100.000\tmain\n\
         8\t1\n\
         9\t1\t1\t10.000\t90.000\n\
         10\tmain\n\
         6\tt.exe\tt.obj\t5\t40.000\t60.000\t{evil}\n\
         8\t1\n\
         9\t2\t5\t40.000\t20.000\n\
         10\tmain\n\
         10\t{evil}\n\
         6\tt.exe\tt.obj\t7\t20.000\t20.000\t{wide}\n\
         8\t1\n\
         9\t3\t7\t20.000\t0\n\
         10\tmain\n\
         10\t{evil}\n\
         10\t{wide}\n\
         6\tt.exe\tt.obj\t2\t30.000\t30.000\t{combining}\n"
    );
    let input = Input::owned("evil\u{1b}[31m.txt", text.into_bytes());
    load_inputs(&[input], &LoadOptions::default()).expect("the hostile profile loads")
}
