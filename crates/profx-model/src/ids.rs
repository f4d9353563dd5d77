//! Small copyable ids for model rows.
//!
//! Panes, sorting and drill-down pass these around instead of references or
//! indices into sorted views, so a selection (`FuncId`) stays valid whatever
//! order a pane shows its rows in.

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub(crate) u32);

        impl $name {
            /// Position of the row in the profile's table.
            pub fn index(self) -> usize {
                self.0 as usize
            }

            /// The id as the number it is, for tables that keep ids as
            /// plain `u32`s (a tree's child lists, a loader's maps).
            pub const fn raw(self) -> u32 {
                self.0
            }

            /// The id whose number is `raw` (`raw`'s inverse).
            pub const fn from_raw(raw: u32) -> Self {
                Self(raw)
            }

            /// Id of the row at `index`; the caller guarantees it exists
            /// (loaders keep ids as plain numbers in their tables).
            pub const fn from_index(index: usize) -> Self {
                // Tables never exceed u32::MAX rows: the builder checks this
                // when it adds a row, so the cast cannot truncate here.
                Self(index as u32)
            }
        }

        impl RowId for $name {
            fn index(self) -> usize {
                self.0 as usize
            }
            fn from_index(index: usize) -> Self {
                Self(index as u32)
            }
        }
    };
}

/// What every id type is: a row position, for code generic over row kinds
/// (the app keeps any pane's rows as plain positions).
pub trait RowId: Copy {
    /// Position of the row in its table.
    fn index(self) -> usize;
    /// Id of the row at `index`.
    fn from_index(index: usize) -> Self;
}

id_type!(
    /// An interned string (function name, module, file, op).
    NameId
);
id_type!(
    /// A function, identified by (name, module).
    FuncId
);
id_type!(
    /// A source line, identified by (file, line).
    LineId
);
id_type!(
    /// A root-first call path.
    StackId
);
id_type!(
    /// A node of the calling-context tree: one distinct call path,
    /// identified by (parent node, function).
    NodeId
);
id_type!(
    /// A piece of the input holding trace events.
    PacketId
);
