//! The README's first screen is a new user's (issue 64): its two set-up
//! commands first, exactly as they are, then, within the first 24 lines
//! (a terminal's height), how to open a profile (`profx FILE`), that `?`
//! lists the keys, and `profx report FILE`. Developer material comes later.

const README: &str = include_str!("../README.md");
const SCREEN: usize = 24;

/// The line (0-based) of the first screen holding `needle`, past `from`.
fn line_of(needle: &str, from: usize) -> usize {
    README
        .lines()
        .take(SCREEN)
        .enumerate()
        .skip(from)
        .find(|(_, l)| l.contains(needle))
        .map(|(i, _)| i)
        .unwrap_or_else(|| {
            let screen: Vec<&str> = README.lines().take(SCREEN).collect();
            panic!(
                "{needle:?} is not on the README's first screen after line {from}:\n{}",
                screen.join("\n")
            )
        })
}

#[test]
fn the_set_up_commands_come_first_as_they_are() {
    let code: Vec<&str> = README
        .lines()
        .skip_while(|l| !l.starts_with("```"))
        .take(4)
        .collect();
    assert_eq!(
        code,
        [
            "```sh",
            "cargo run --release        # open the explorer on its built-in demo profile",
            "cargo test --locked        # run the whole test suite",
            "```",
        ]
    );
    let first_fence = line_of("```", 0);
    assert!(
        README
            .lines()
            .take(first_fence)
            .all(|l| l.is_empty() || l.starts_with("# ")),
        "only the title before them"
    );
}

#[test]
fn the_first_screen_says_how_to_open_a_profile_get_help_and_print_a_report() {
    let commands = line_of("cargo test --locked", 0);
    let open = line_of("profx FILE ", commands + 1);
    let help = line_of("`?`", commands + 1);
    let report = line_of("profx report FILE", commands + 1);
    // Opening a file is said before the rest.
    assert!(open < help && open <= report, "{open} {help} {report}");
    let help_line = README.lines().nth(help).unwrap_or("");
    assert!(help_line.contains("every key"), "{help_line}");
}

#[test]
fn developer_material_is_below_the_first_screen() {
    let screen: String = README.lines().take(SCREEN).collect::<Vec<_>>().join("\n");
    for dev in ["CONTRIBUTING", "tmux", "optimized across crates"] {
        assert!(!screen.contains(dev), "{dev:?} on the first screen");
    }
    let developing = README
        .find("\n## Developing")
        .expect("a Developing section");
    assert!(
        README[developing..].contains("tmux"),
        "what the tests need is said there"
    );
}
