//! The threads list (model.md § Queries): each thread of a trace with its
//! span, busy time, events, calls and heaviest function. The trace feed
//! counts the first five as it loads (`Profile::threads`); the heaviest
//! function is read from the calls in time order where the profile keeps
//! them (`Profile::timeline`: every trace up to 64 MiB, larger ones loaded
//! with `--timeline`), as a thread's own exclusive times are nowhere else.

use profx_model::{FuncId, Profile, ThreadInfo};

/// One row of the threads list (a row of `Table::Threads`, whose columns
/// are `columns::ThreadColumn`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThreadRow {
    /// What the trace feed counted.
    pub info: ThreadInfo,
    /// The function with the most exclusive time on the thread, and that
    /// time; `None` where the profile keeps no time order, or the thread
    /// called nothing.
    pub heaviest: Option<(FuncId, f64)>,
}

/// The order threads are listed in wherever profx lists them (`--json`'s
/// `threads`, the threads table's canonical order, every export, the
/// Flame pane's bands): ascending by the id the trace gives them, as a
/// reader looks for thread 1 above thread 2, whichever ran first. The
/// positions in `ids` (the trace's first-met order, which the model and
/// the time order index by) in that order.
pub fn by_id(ids: impl IntoIterator<Item = u64>) -> Vec<usize> {
    let ids: Vec<u64> = ids.into_iter().collect();
    let mut order: Vec<usize> = (0..ids.len()).collect();
    order.sort_by_key(|&i| ids[i]);
    order
}

/// `p`'s threads in id order (`by_id`).
pub fn threads_by_id(p: &Profile) -> Vec<ThreadInfo> {
    let all = p.threads();
    by_id(all.iter().map(|t| t.id))
        .into_iter()
        .map(|i| all[i])
        .collect()
}

/// The threads list of `p`, in id order (`by_id`).
pub fn thread_rows(p: &Profile) -> Vec<ThreadRow> {
    let heaviest = heaviest(p);
    let all = p.threads();
    // The time order's threads are the model's, first met first.
    by_id(all.iter().map(|t| t.id))
        .into_iter()
        .map(|i| ThreadRow {
            info: all[i],
            heaviest: heaviest.get(i).copied().flatten(),
        })
        .collect()
}

/// Each timeline thread's heaviest function: the time between a thread's
/// consecutive marks belongs to the call on top of its stack then.
fn heaviest(p: &Profile) -> Vec<Option<(FuncId, f64)>> {
    let Some(tl) = p.timeline() else {
        return Vec::new();
    };
    let n = tl.threads.len();
    let mut stacks: Vec<Vec<FuncId>> = vec![Vec::new(); n];
    let mut last: Vec<f64> = vec![0.0; n];
    let mut own: Vec<rustc_hash::FxHashMap<FuncId, f64>> = vec![Default::default(); n];
    for m in &tl.marks {
        let t = m.thread as usize;
        let (Some(stack), Some(at)) = (stacks.get_mut(t), last.get_mut(t)) else {
            continue;
        };
        if let Some(&top) = stack.last()
            && tl.timed
        {
            *own[t].entry(top).or_default() += (m.at - *at).max(0.0);
        }
        *at = m.at;
        match m.open() {
            true => stack.push(m.func()),
            false => {
                stack.pop();
            }
        }
    }
    own.into_iter()
        .map(|o| {
            o.into_iter()
                .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
        })
        .collect()
}
