//! The way back from a trace's profile to its input (`profx_model::Replay`):
//! a query choosing threads loads the input again, through the same
//! loader and so the same rules engine (`xpp/rules.rs`), with only those
//! threads' records let through. Its events are the chosen threads', its
//! session their span: exactly a trace holding only their events.

use crate::{Input, LoadOptions, Loader, load_one};
use profx_model::{Profile, Replay, Watch};

/// A loaded input, its loader and the options it was loaded with.
pub(crate) struct FromInput {
    input: Input,
    loader: &'static dyn Loader,
    opts: LoadOptions,
}

impl std::fmt::Debug for FromInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FromInput")
            .field("input", &self.input.name())
            .field("loader", &self.loader.name())
            .finish()
    }
}

impl FromInput {
    pub(crate) fn new(input: &Input, loader: &'static dyn Loader, opts: &LoadOptions) -> FromInput {
        FromInput {
            input: input.clone(),
            loader,
            opts: opts.clone(),
        }
    }
}

impl Replay for FromInput {
    fn threads(&self, ids: &[u64], watch: &Watch<'_>) -> Result<Profile, String> {
        let cancel = || watch.cancelled();
        if cancel() {
            return Err("cancelled".into());
        }
        let opts = LoadOptions {
            threads: Some(ids.to_vec()),
            // The input loaded once; its first load's warnings were the
            // user's to see. A replay is not stopped by them again.
            strict: false,
            ..self.opts.clone()
        };
        let profile = load_one(&self.input, self.loader, &opts).map_err(|e| e.to_string())?;
        match cancel() {
            true => Err("cancelled".into()),
            false => Ok(profile),
        }
    }
}
