//! Entity references and the arenas they index.
//!
//! IR nodes never point at each other: an instruction names its operands by `Value`, a branch
//! names its target by `Block`. Each entity is a `u32` newtype whose `Display` is its text form
//! (`v3`, `block2`, `ss0`), and the arenas below map entities to their data.

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// An index type for an arena.
pub trait EntityRef: Copy + Eq {
    /// The entity with the given index.
    fn new(index: usize) -> Self;
    /// The index of this entity.
    fn index(self) -> usize;
}

macro_rules! entity {
    ($(#[$doc:meta])* $name:ident, $prefix:expr) => {
        $(#[$doc])*
        #[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(u32);

        impl $name {
            /// The entity with the given number.
            pub const fn from_u32(n: u32) -> Self {
                Self(n)
            }
            /// The number of this entity.
            pub const fn as_u32(self) -> u32 {
                self.0
            }
        }

        impl EntityRef for $name {
            fn new(index: usize) -> Self {
                Self(u32::try_from(index).expect("entity index overflows u32"))
            }
            fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(self, f)
            }
        }
    };
}

entity!(
    /// An SSA value: the result of an instruction or a block parameter.
    Value,
    "v"
);
entity!(
    /// An instruction.
    Inst,
    "inst"
);
entity!(
    /// A basic block.
    Block,
    "block"
);
entity!(
    /// A private stack slot of a function (an `alloca`).
    StackSlot,
    "ss"
);
entity!(
    /// A function (definition or declaration) of a module.
    Func,
    "fn"
);
entity!(
    /// A module-scope variable in the global, constant or local address space.
    Global,
    "g"
);
entity!(
    /// A source-level variable of the SSA construction helpers.
    Variable,
    "var"
);

/// An arena: entities are allocated in order and never removed.
#[derive(Clone, PartialEq, Eq)]
pub struct PrimaryMap<K: EntityRef, V> {
    elems: Vec<V>,
    unused: PhantomData<K>,
}

impl<K: EntityRef, V> Default for PrimaryMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: EntityRef, V> PrimaryMap<K, V> {
    /// An empty arena.
    pub fn new() -> Self {
        Self {
            elems: Vec::new(),
            unused: PhantomData,
        }
    }
    /// Allocates an entity holding `v`.
    pub fn push(&mut self, v: V) -> K {
        let k = K::new(self.elems.len());
        self.elems.push(v);
        k
    }
    /// The number of entities.
    pub fn len(&self) -> usize {
        self.elems.len()
    }
    /// Whether the arena is empty.
    pub fn is_empty(&self) -> bool {
        self.elems.is_empty()
    }
    /// Whether `k` was allocated here.
    pub fn is_valid(&self, k: K) -> bool {
        k.index() < self.elems.len()
    }
    /// The data of `k`, if allocated.
    pub fn get(&self, k: K) -> Option<&V> {
        self.elems.get(k.index())
    }
    /// The data of `k`, if allocated.
    pub fn get_mut(&mut self, k: K) -> Option<&mut V> {
        self.elems.get_mut(k.index())
    }
    /// All entities in allocation order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = K> + ExactSizeIterator {
        (0..self.elems.len()).map(K::new)
    }
    /// All data in allocation order.
    pub fn values(&self) -> std::slice::Iter<'_, V> {
        self.elems.iter()
    }
    /// All entities with their data.
    pub fn iter(&self) -> impl Iterator<Item = (K, &V)> {
        self.elems.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }
    /// All entities with their data, mutably.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (K, &mut V)> {
        self.elems
            .iter_mut()
            .enumerate()
            .map(|(i, v)| (K::new(i), v))
    }
}

impl<K: EntityRef, V> Index<K> for PrimaryMap<K, V> {
    type Output = V;
    fn index(&self, k: K) -> &V {
        &self.elems[k.index()]
    }
}

impl<K: EntityRef, V> IndexMut<K> for PrimaryMap<K, V> {
    fn index_mut(&mut self, k: K) -> &mut V {
        &mut self.elems[k.index()]
    }
}

impl<K: EntityRef + fmt::Debug, V: fmt::Debug> fmt::Debug for PrimaryMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// A side table: data for entities of a primary arena, with a default for the absent ones.
#[derive(Clone)]
pub struct SecondaryMap<K: EntityRef, V: Clone> {
    elems: Vec<V>,
    default: V,
    unused: PhantomData<K>,
}

impl<K: EntityRef, V: Clone + Default> Default for SecondaryMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: EntityRef, V: Clone + Default> SecondaryMap<K, V> {
    /// An empty table whose absent entries are `V::default()`.
    pub fn new() -> Self {
        Self::with_default(V::default())
    }
}

impl<K: EntityRef, V: Clone> SecondaryMap<K, V> {
    /// An empty table whose absent entries are `default`.
    pub fn with_default(default: V) -> Self {
        Self {
            elems: Vec::new(),
            default,
            unused: PhantomData,
        }
    }
    /// Resets every entry to the default, keeping the allocation.
    pub fn clear(&mut self) {
        self.elems.clear();
    }
}

impl<K: EntityRef, V: Clone> Index<K> for SecondaryMap<K, V> {
    type Output = V;
    fn index(&self, k: K) -> &V {
        self.elems.get(k.index()).unwrap_or(&self.default)
    }
}

impl<K: EntityRef, V: Clone> IndexMut<K> for SecondaryMap<K, V> {
    fn index_mut(&mut self, k: K) -> &mut V {
        let i = k.index();
        if i >= self.elems.len() {
            self.elems.resize(i + 1, self.default.clone());
        }
        &mut self.elems[i]
    }
}

impl<K: EntityRef, V: Clone + PartialEq> PartialEq for SecondaryMap<K, V> {
    /// Two tables are equal when every entry reads the same, absent entries included.
    fn eq(&self, other: &Self) -> bool {
        let n = self.elems.len().max(other.elems.len());
        self.default == other.default
            && (0..n).all(|i| {
                let a = self.elems.get(i).unwrap_or(&self.default);
                let b = other.elems.get(i).unwrap_or(&other.default);
                a == b
            })
    }
}

impl<K: EntityRef, V: Clone + fmt::Debug> fmt::Debug for SecondaryMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.elems.iter()).finish()
    }
}
