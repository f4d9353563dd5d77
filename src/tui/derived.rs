//! What the panes derive from the profile once, and share: each table's
//! columns, widths, canonical and tie orders, the call graph and the call
//! tree's index, made ahead of need on threads of their own. None of it is
//! state: it is the same whoever makes it, a thread of its own or a reader
//! that needs it first.

use super::columns::{self, Col, Src};
use crate::analysis::callgraph::{CallGraph, Edge, Lists};
use crate::analysis::calltree::TreeIndex;
use crate::analysis::cct::Cct;
use crate::analysis::modules::ModuleRow;
use crate::analysis::query::ThreadRow;
use crate::analysis::resort::TieOrder;
use crate::analysis::view::Table;
use crate::model::{FuncId, NameId, Profile};
use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

/// A table kind's columns and their widths, fixed for the session.
#[derive(Debug)]
pub struct TableColumns {
    pub cols: Vec<Col>,
    pub widths: Vec<u16>,
    pub canonical: Vec<u32>,
}

/// Rows from which a pane's widths are measured on a thread of their own.
const LARGE: usize = 50_000;

impl TableColumns {
    /// A large pane's widths are measured on a second core while its rows
    /// are ordered (neither needs the other); a small one's on this thread.
    pub fn new(src: Src, k: Table) -> TableColumns {
        let cols = columns::present_columns(src, k);
        let (canonical, widths) = if columns::row_count(src, k) < LARGE {
            (
                columns::canonical_rows(src, k),
                columns::column_widths(src, k, &cols),
            )
        } else {
            std::thread::scope(|s| {
                let widths = std::thread::Builder::new()
                    .spawn_scoped(s, || columns::column_widths(src, k, &cols))
                    .ok();
                let canonical = columns::canonical_rows(src, k);
                let widths = match widths.map(|w| w.join()) {
                    Some(Ok(widths)) => widths,
                    Some(Err(panic)) => std::panic::resume_unwind(panic),
                    None => columns::column_widths(src, k, &cols),
                };
                (canonical, widths)
            })
        };
        TableColumns {
            cols,
            widths,
            canonical,
        }
    }
}

/// What the panes derive from the profile once: each kind's columns,
/// canonical order and tie order, and the call graph. A million stacks take
/// a few hundred milliseconds to order, measure and rank, so the first
/// frame does not wait for the panes it does not show: `App::new` makes the
/// Functions pane and its first view (a large profile's on a thread of its
/// own, `Opening`, the first frame showing its first rows meanwhile), then
/// starts a thread making the
/// graph; once the first frame is drawn, another makes the other panes
/// (before, on two cores, either would slow the first frame).
/// Whoever needs one first makes it (`OnceLock::get_or_init` waits for a
/// thread already making it, or makes it when none is), so a pane asked
/// for early, or a thread that could not start, costs time, never a
/// different answer.
#[derive(Default)]
pub struct Prepared {
    columns: [OnceLock<TableColumns>; Table::ALL.len()],
    /// Each kind's tie order (`resort`), which every sort of its rows uses:
    /// made and used, it takes no longer than the first sort without it.
    ties: [OnceLock<Option<TieOrder>>; Table::ALL.len()],
    graph: OnceLock<CallGraph>,
    /// The call tree's children and weights, made when the Call tree is
    /// first opened.
    tree: OnceLock<Arc<TreeIndex>>,
    cct: OnceLock<Arc<Cct>>,
    /// The last few orders of whole tables (a kind's every row by a column),
    /// newest last: going back to a column sorted a moment ago, as one does
    /// when comparing two columns, takes a copy, not a sort.
    orders: std::sync::Mutex<Vec<(OrderKey, Arc<Vec<u32>>)>>,
    panes_started: OnceLock<()>,
    /// Each kind's search name by row (`columns::search_names`), made at the
    /// first search of it: a search reads these 4 bytes a row, not the
    /// row's 120.
    search_names: [OnceLock<Option<Vec<NameId>>>; Table::ALL.len()],
    name_scan: OnceLock<crate::analysis::search::NameScan>,
    /// The threads list's rows, made when the Threads table first asks
    /// (a thread's heaviest function is a walk of every call in time
    /// order) or given by whoever made them (`with_threads`).
    threads: OnceLock<Vec<ThreadRow>>,
    /// The Modules table's rows, made when it is first opened (a module's
    /// inclusive time is a walk of every call path).
    modules: OnceLock<Vec<ModuleRow>>,
}

/// A whole table's order: its kind and its sort.
pub(super) type OrderKey = (Table, Option<(Col, bool)>);

/// Whole-table orders kept (`Prepared::orders`): at 4 M rows, 16 MB each.
const ORDERS_KEPT: usize = 4;

impl Prepared {
    /// A whole table's order made earlier, if it is still kept.
    pub fn order(&self, key: OrderKey) -> Option<Arc<Vec<u32>>> {
        let mut kept = self.orders.lock().ok()?;
        let at = kept.iter().position(|(k, _)| *k == key)?;
        let entry = kept.remove(at);
        let rows = Arc::clone(&entry.1);
        kept.push(entry);
        Some(rows)
    }

    /// Keeps a whole table's order for the next view of it: the pane's own
    /// list, shared, not a copy.
    pub fn keep_order(&self, key: OrderKey, rows: &Arc<Vec<u32>>) {
        if let Ok(mut kept) = self.orders.lock() {
            kept.retain(|(k, _)| *k != key);
            if kept.len() >= ORDERS_KEPT {
                kept.remove(0);
            }
            kept.push((key, Arc::clone(rows)));
        }
    }

    pub fn columns(&self, p: &Profile, k: Table) -> &TableColumns {
        self.columns[k.index()].get_or_init(|| TableColumns::new(Src::new(p, self), k))
    }

    /// What is derived for a profile whose threads list's rows are made.
    pub fn with_threads(rows: Vec<ThreadRow>) -> Prepared {
        let pr = Prepared::default();
        let _ = pr.threads.set(rows);
        pr
    }

    /// The threads list of `p` (`analysis::query::thread_rows`).
    pub fn thread_rows(&self, p: &Profile) -> &[ThreadRow] {
        self.threads
            .get_or_init(|| crate::analysis::query::thread_rows(p))
    }

    /// The Modules table's rows of `p` (`analysis::modules::module_rows`).
    pub fn module_rows(&self, p: &Profile) -> &[ModuleRow] {
        self.modules
            .get_or_init(|| crate::analysis::modules::module_rows(p))
    }

    /// Whether a table's columns are made (not waiting for a thread).
    pub fn columns_made(&self, k: Table) -> bool {
        self.columns[k.index()].get().is_some()
    }

    /// The call graph, if made.
    pub fn graph_made(&self) -> Option<&CallGraph> {
        self.graph.get()
    }

    pub fn ties(&self, p: &Profile, k: Table) -> Option<&TieOrder> {
        self.ties[k.index()]
            .get_or_init(|| columns::tie_order(p, k, &self.columns(p, k).canonical))
            .as_ref()
    }

    pub fn search_names(
        &self,
        p: &Profile,
        k: Table,
    ) -> Option<super::pane::table::SearchNames<'_>> {
        let by_row = self.search_names[k.index()]
            .get_or_init(|| columns::search_names(p, k))
            .as_deref()?;
        let scan = self
            .name_scan
            .get_or_init(|| crate::analysis::search::NameScan::new(p));
        Some(super::pane::table::SearchNames { by_row, scan })
    }

    pub fn graph(&self, p: &Profile) -> &CallGraph {
        self.graph
            .get_or_init(|| CallGraph::build_on(p, &self.cct(p)))
    }

    pub fn tree(&self, p: &Profile) -> Arc<TreeIndex> {
        let made = || Arc::new(TreeIndex::build_on(p, self.cct(p)));
        Arc::clone(self.tree.get_or_init(made))
    }

    /// The calling-context tree the graph and the Call tree both read:
    /// made once. Made apart, the two threads that make them ahead of need
    /// held two copies at once, the peak of a large profile's session.
    fn cct(&self, p: &Profile) -> Arc<Cct> {
        Arc::clone(self.cct.get_or_init(|| Arc::new(Cct::build(p))))
    }

    /// Runs `job` on a thread of its own. If none starts, the UI thread
    /// makes each thing when it is asked for.
    pub fn spawn(self: &Arc<Prepared>, profile: &Arc<Profile>, job: fn(&Prepared, &Profile)) {
        let (pr, p) = (Arc::clone(self), Arc::clone(profile));
        let _ = std::thread::Builder::new()
            .name("profx-prepare".into())
            .spawn(move || {
                profx_sys::thread::yield_to_keys();
                match ahead_pool() {
                    Some(pool) => pool.install(|| job(&pr, &p)),
                    None => job(&pr, &p),
                }
                // What the job made is kept; what it worked in is given
                // back, not left resident in this thread's heap.
                profx_sys::heap::give_back_freed();
            });
    }

    pub fn start_graph(self: &Arc<Prepared>, profile: &Arc<Profile>) {
        self.spawn(profile, |pr, p| {
            pr.graph(p);
        });
    }

    pub fn start_panes(self: &Arc<Prepared>, profile: &Arc<Profile>) {
        self.panes_started.get_or_init(|| {
            self.spawn(profile, |pr, p| {
                // What a search of the functions reads first: a search is
                // the first thing many users do.
                pr.search_names(p, Table::Functions);
                // The graph's thread makes the tree the Call tree reads
                // too: waited for, so that the two threads' working
                // memory is not held at once (a large profile's peak).
                pr.graph(p);
                // A kind's tie order needs its pane, so this makes both.
                for k in [Table::Stacks, Table::Lines, Table::Packets] {
                    pr.ties(p, k);
                }
                pr.tree(p);
                // The other panes' search names last: made at a first
                // search, they cost that keystroke a pass over the rows.
                for k in [Table::Stacks, Table::Lines, Table::Packets] {
                    pr.search_names(p, k);
                }
            });
        });
    }
}

/// The threads that the sorts and passes of what is made ahead of need
/// split their work over: a rayon pool of their own, at the prepare
/// threads' priority. On the global pool, a keystroke's search would wait
/// behind a pane's sort made ahead, and that sort would run at the keys'
/// priority.
fn ahead_pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("profx-ahead-{i}"))
            .start_handler(|_| profx_sys::thread::yield_to_keys())
            .build()
            .ok()
    })
    .as_ref()
}

/// The first view of a large profile, while its rows are ordered on a
/// thread: the first frame shows the rows that order puts first, found in
/// one pass without sorting them all, measured alone; the next intent
/// (or the event loop's poll, once the thread is done) puts the whole
/// order in their place.
pub struct Opening {
    rows: std::thread::JoinHandle<Vec<u32>>,
    /// The first row's callers and callees, counted by the same thread
    /// before the order.
    neighbours: Arc<OnceLock<Counted>>,
    /// The columns, measured over the first rows only.
    columns: TableColumns,
}

/// A function with its callers and callees.
type Counted = (FuncId, Lists);

/// A function's callers and callees, borrowed or made for the asking, and
/// whether it calls itself (then their times overlap).
pub(super) type Neighbours<'a> = (Cow<'a, [Edge]>, Cow<'a, [Edge]>, bool);

/// A table's sort: its column, descending when true.
pub(super) type Sort = Option<(Col, bool)>;

/// Functions from which the first view is ordered on a thread.
const OPEN_ON_A_THREAD: usize = LARGE;

impl Opening {
    /// Starts ordering a large profile's Functions table on a thread, and
    /// gives the rows its order puts first (`rows` of them, found in one
    /// pass), their sort, and the columns measured over them. `None`, with
    /// nothing started, when the profile is small or no thread starts.
    pub fn start(
        p: &Arc<Profile>,
        pr: &Arc<Prepared>,
        rows: usize,
    ) -> Option<(Opening, Vec<u32>, Sort)> {
        if p.functions().len() < OPEN_ON_A_THREAD {
            return None;
        }
        let src = Src::new(p, pr);
        let cols = columns::present_columns(src, Table::Functions);
        let sort = columns::default_sort(Table::Functions, &cols);
        let first: Vec<u32> = match sort {
            Some((Col::F(c), descending)) => {
                let first = crate::analysis::sort::first_functions_by(p, c, descending, rows);
                first.iter().map(|f| f.index() as u32).collect()
            }
            _ => return None,
        };
        let (pr, profile) = (Arc::clone(pr), Arc::clone(p));
        let neighbours = Arc::new(OnceLock::new());
        let counted = Arc::clone(&neighbours);
        let selected = first.first().map(|&r| FuncId::from_index(r as usize));
        let job = move || {
            let p = profile;
            // The detail's lists first: the first frame is drawn without
            // them (a pass over every node), and the next shows them.
            if let Some(f) = selected {
                let _ = counted.set((f, CallGraph::neighbours(&p, f)));
            }
            let mut rows = pr.columns(&p, Table::Functions).canonical.clone();
            if let Some((col, descending)) = sort {
                let ties = pr.ties(&p, Table::Functions);
                columns::sort(Src::new(&p, &pr), &mut rows, col, descending, ties);
            }
            // The other panes wait for this order, which the next key needs.
            pr.start_panes(&p);
            rows
        };
        let handle = std::thread::Builder::new()
            .name("profx-open".into())
            .spawn(job)
            .ok()?;
        let widths = columns::column_widths_of(src, &cols, first.iter().copied());
        let pane = TableColumns {
            cols,
            widths,
            canonical: Vec::new(),
        };
        let opening = Opening {
            rows: handle,
            neighbours,
            columns: pane,
        };
        Some((opening, first, sort))
    }

    pub fn is_finished(&self) -> bool {
        self.rows.is_finished()
    }

    /// The whole order, waiting for its thread.
    pub fn join(self) -> Vec<u32> {
        self.rows
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p))
    }

    /// The Functions table's columns while its order is made.
    pub fn columns(&self) -> &TableColumns {
        &self.columns
    }

    /// The first row's lists, once counted; `None` for another function
    /// or before.
    pub fn neighbours(&self, f: FuncId) -> Option<Neighbours<'_>> {
        match self.neighbours.get() {
            Some((g, l)) if *g == f => Some((
                Cow::Borrowed(&l.callers[..]),
                Cow::Borrowed(&l.callees[..]),
                l.recursive,
            )),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pane large enough to have its widths measured on a second thread
    /// is the pane measured and ordered on one.
    #[test]
    fn a_large_pane_is_made_as_on_one_thread() {
        let p = crate::fixture_gen::large::profile(60_000);
        let pr = Prepared::default();
        let src = Src::new(&p, &pr);
        for k in Table::ALL {
            let pane = TableColumns::new(src, k);
            let cols = columns::present_columns(src, k);
            assert_eq!(pane.canonical, columns::canonical_rows(src, k), "{k:?}");
            assert_eq!(pane.widths, columns::column_widths(src, k, &cols), "{k:?}");
            assert_eq!(pane.cols, cols, "{k:?}");
        }
        assert!(columns::row_count(src, Table::Stacks) >= LARGE);
    }
}
