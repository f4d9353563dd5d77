//! A comparison of two runs in the app (`profx diff BASE NEW` on a
//! terminal; tui.md § Comparisons). The app holds it whole: the
//! `Comparison` analysis makes of the query's two answers (each side by
//! `Policy::Side`, the one runner's), and the names the header gives the
//! two inputs. The app's query is NEW's answer, so every pane that is not
//! compared reads NEW's run, and says so.

use super::derived::Prepared;
use crate::analysis::diff::{Comparison, Neighbours, TreeBase, Which};
use crate::analysis::query::Query;
use crate::text::visible;
use std::sync::{Arc, OnceLock};

/// The app's comparison: what `profx diff --json` compares, and how the
/// header names its two sides.
pub struct Compared {
    comparison: Comparison,
    /// Each side's input as a person calls it (its file name), base first.
    names: [String; 2],
    /// The query both sides answer, as asked (a step left out of one side
    /// is in it: the other side took it).
    query: Query,
    /// BASE's call tree, made when a Call tree pane first asks for it.
    tree: OnceLock<Arc<TreeBase>>,
    /// NEW's, for the flame graph drawn with BASE's widths (`b`).
    new_tree: OnceLock<Arc<TreeBase>>,
    /// What the panes derive from BASE's profile (its flame graph).
    base_prepared: OnceLock<Arc<Prepared>>,
    /// Both runs' edges paired, made when the compared butterfly first
    /// asks for them.
    neighbours: OnceLock<Neighbours>,
}

impl std::fmt::Debug for Compared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compared")
            .field("names", &self.names)
            .finish()
    }
}

impl Compared {
    /// The comparison of the inputs named `names` (base, new), both
    /// sides answers to `query`.
    pub fn new(comparison: Comparison, names: [String; 2], query: Query) -> Compared {
        Compared {
            comparison,
            names,
            query,
            tree: OnceLock::new(),
            new_tree: OnceLock::new(),
            base_prepared: OnceLock::new(),
            neighbours: OnceLock::new(),
        }
    }

    /// Both runs' edges paired by the functions' rows: every compared
    /// butterfly is read from them (made once: O(both runs' nodes)).
    pub fn neighbours(&self) -> &Neighbours {
        self.neighbours
            .get_or_init(|| Neighbours::of(&self.comparison))
    }

    /// NEW's call tree, whose totals BASE's flame graph is coloured
    /// against (`b`).
    pub fn tree_new(&self) -> Arc<TreeBase> {
        let made = self
            .new_tree
            .get_or_init(|| Arc::new(TreeBase::of_side(&self.comparison, Which::New)));
        Arc::clone(made)
    }

    /// What the panes derive from BASE's profile.
    pub(super) fn base_prepared(&self) -> &Arc<Prepared> {
        self.base_prepared.get_or_init(Arc::default)
    }

    /// BASE's call tree, whose totals the Call tree pane shows beside
    /// NEW's (nodes paired by their path of names).
    pub fn tree_base(&self) -> Arc<TreeBase> {
        let made = self
            .tree
            .get_or_init(|| Arc::new(TreeBase::of(&self.comparison)));
        Arc::clone(made)
    }

    /// The query both sides answer.
    pub fn query(&self) -> &Query {
        &self.query
    }

    /// The same inputs compared under another query.
    pub fn with(&self, comparison: Comparison, query: Query) -> Compared {
        Compared::new(comparison, self.names.clone(), query)
    }

    /// The command line that prints the comparison's table (`Y`): `profx
    /// diff BASE NEW --table` and the query both sides answer, each
    /// argument shell-quoted.
    pub fn command_line(&self) -> String {
        let mut args = vec!["profx".to_string(), "diff".to_string()];
        for w in Which::BOTH {
            let p = self.comparison.profile(w);
            args.push(
                p.sources
                    .first()
                    .cloned()
                    .unwrap_or_else(|| self.name(w).into()),
            );
        }
        args.push("--table".into());
        args.extend(self.query.to_args());
        crate::analysis::query::shell_words(&args)
    }

    /// What a side left out of the query (a step naming what that side
    /// lacks), in words: `left out of base: merge F (no function F)`.
    pub fn left_out(&self) -> Vec<String> {
        Which::BOTH
            .iter()
            .flat_map(|&w| {
                self.comparison
                    .side(w)
                    .left_out_steps()
                    .map(move |(s, why)| {
                        format!(
                            "left out of {w}: {} ({})",
                            visible(&s.label()),
                            visible(why)
                        )
                    })
            })
            .collect()
    }

    /// What is compared.
    pub fn comparison(&self) -> &Comparison {
        &self.comparison
    }

    /// A side's input, as the header names it.
    pub fn name(&self, w: Which) -> &str {
        match w {
            Which::Base => &self.names[0],
            Which::New => &self.names[1],
        }
    }

    /// The header's title: `base.txt (plist) → new.prf (xpp)`.
    pub fn title(&self) -> String {
        let side = |w: Which| {
            let format = &self.comparison.profile(w).format;
            format!("{} ({})", visible(self.name(w)), visible(format))
        };
        format!("{} → {}", side(Which::Base), side(Which::New))
    }

    /// How many functions are in both runs, new and gone, for the header.
    pub fn counts(&self) -> String {
        use crate::report::fmt::{counted, grouped};
        let rows = self.comparison.rows();
        let n = |s: &str| rows.iter().filter(|r| r.status() == s).count() as u64;
        format!(
            "{}: {} in both, {} new, {} gone",
            counted(rows.len() as u64, "functions"),
            grouped(n("both")),
            grouped(n("new")),
            grouped(n("gone"))
        )
    }
}
