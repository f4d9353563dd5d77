//! The demo profile: a BR timed log of an imaginary order-entry program,
//! generated deterministically so `assets/demo/orders.prof` can be remade
//! (`cargo run --example make_demo`) and a test checks it is current.
//!
//! It is built to fill every pane: named functions, a GOSUB routine, the
//! main routine, a frame attributed to its program, recursion, many lines,
//! and one packet of timed sample events for the Trace pane.

/// File name the demo reports as its source.
pub const NAME: &str = "orders.prof";

/// The committed demo log's bytes (`assets/demo/orders.prof`), which the
/// binary carries and the lower crates' tests load.
pub const BYTES: &[u8] = include_bytes!("../../../assets/demo/orders.prof");

/// A frame of a call path: function (`main`, `gosub`, `-` for a frame with
/// no attribute, else a name), module number, first line, lines it spans.
type Frame = (&'static str, u16, u32, u32);

/// Root-first call paths with their share of samples and mean time (µs).
const PATHS: &[(&[Frame], u32, u32)] = &[
    (&[("main", 1, 110, 9)], 460, 300),
    (&[("main", 1, 120, 1), ("FNREADCUST", 3, 12, 6)], 300, 900),
    (
        &[
            ("main", 1, 130, 1),
            ("FNPRICE", 2, 44, 1),
            ("FNTAX", 2, 121, 6),
        ],
        500,
        800,
    ),
    (&[("main", 1, 130, 1), ("FNPRICE", 2, 45, 8)], 400, 600),
    (
        &[
            ("main", 1, 130, 1),
            ("FNPRICE", 2, 52, 1),
            ("FNDISCOUNT", 2, 205, 1),
            ("FNROUND", 2, 300, 3),
        ],
        250,
        500,
    ),
    (&[("main", 1, 140, 1), ("gosub", 1, 505, 12)], 350, 700),
    (
        &[
            ("main", 1, 140, 1),
            ("gosub", 1, 525, 1),
            ("FNREADITEM", 3, 61, 7),
        ],
        200,
        1100,
    ),
    (
        &[
            ("main", 1, 150, 1),
            ("FNEXPAND", 2, 405, 1),
            ("FNEXPAND", 2, 405, 1),
            ("FNEXPAND", 2, 406, 5),
        ],
        150,
        1500,
    ),
    (&[("main", 1, 160, 1), ("-", 3, 5, 3)], 100, 2000),
    (&[("main", 1, 170, 1), ("FNREADITEM", 3, 66, 4)], 300, 1000),
];

const MODULES: &[(u16, &str)] = &[
    (1, "ORDERS.BR"),
    (2, "LIB\\FNSLIB.BR"),
    (3, "LIB\\DBLIB.BR"),
];

/// A small deterministic generator (xorshift): the demo must not change
/// between builds or machines.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u32) -> u32 {
        (self.next() % u64::from(n.max(1))) as u32
    }
}

/// The demo as a description for `fixture_gen::br::compile`.
pub fn orders_description() -> String {
    let mut rng = Rng(0x5eed0f0dde5);
    let mut out = String::from("# profx demo: ORDERS.BR, DEBUG PROFILE TIMED\n");
    for (n, name) in MODULES {
        out.push_str(&format!("module {n} \"{name}\"\n"));
    }
    let total: u32 = PATHS.iter().map(|p| p.1).sum();
    for _ in 0..total {
        let mut pick = rng.below(total);
        let (frames, _, mean_us) = PATHS
            .iter()
            .find(|p| {
                let hit = pick < p.1;
                pick = pick.saturating_sub(p.1);
                hit
            })
            .unwrap_or(&PATHS[0]);
        let ns = u64::from(*mean_us) * (500 + u64::from(rng.below(1000)));
        for (i, &(func, module, first, span)) in frames.iter().rev().enumerate() {
            let line = first + rng.below(span);
            let verb = if i == 0 { "sample" } else { "back" };
            out.push_str(&format!("{verb} {module} {line} {}\n", rng.below(3)));
            if i == 0 {
                out.push_str(&format!("time {ns}\n"));
            }
            match func {
                "main" => out.push_str("main\n"),
                "gosub" => out.push_str("gosub\n"),
                "-" => {}
                name => out.push_str(&format!("name \"{name:<10}\"\n")),
            }
        }
        out.push_str("end\n");
    }
    out
}
