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

impl<K: EntityRef, V: Clone> SecondaryMap<K, V> {
    /// The entries set so far, in the order of their entities (with the default for those
    /// below the highest set one that were never set).
    pub fn iter(&self) -> impl Iterator<Item = (K, &V)> {
        self.elems.iter().enumerate().map(|(i, v)| (K::new(i), v))
    }
}

/// A set of entities of one arena: a bit per entity, iterated in the order of the entities.
#[derive(Clone)]
pub struct EntitySet<K: EntityRef> {
    words: Vec<u64>,
    unused: PhantomData<K>,
}

impl<K: EntityRef> Default for EntitySet<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: EntityRef> EntitySet<K> {
    /// An empty set.
    pub fn new() -> Self {
        Self {
            words: Vec::new(),
            unused: PhantomData,
        }
    }

    /// Whether `k` is in the set.
    pub fn contains(&self, k: K) -> bool {
        let i = k.index();
        self.words
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// Adds `k`; returns whether it was not in the set yet.
    pub fn insert(&mut self, k: K) -> bool {
        let i = k.index();
        if i / 64 >= self.words.len() {
            self.words.resize(i / 64 + 1, 0);
        }
        let bit = 1 << (i % 64);
        let new = self.words[i / 64] & bit == 0;
        self.words[i / 64] |= bit;
        new
    }

    /// Removes `k`; returns whether it was in the set.
    pub fn remove(&mut self, k: K) -> bool {
        let i = k.index();
        let Some(w) = self.words.get_mut(i / 64) else {
            return false;
        };
        let bit = 1 << (i % 64);
        let was = *w & bit != 0;
        *w &= !bit;
        was
    }

    /// Empties the set, keeping the allocation.
    pub fn clear(&mut self) {
        self.words.clear();
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// How many entities the set holds.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The entities of the set, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = K> + '_ {
        self.words.iter().enumerate().flat_map(|(i, &w)| {
            let mut rest = w;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(K::new(i * 64 + bit))
            })
        })
    }
}

impl<K: EntityRef> PartialEq for EntitySet<K> {
    /// Two sets are equal when they hold the same entities, whatever their allocations.
    fn eq(&self, other: &Self) -> bool {
        let n = self.words.len().max(other.words.len());
        (0..n).all(|i| self.words.get(i).unwrap_or(&0) == other.words.get(i).unwrap_or(&0))
    }
}

impl<K: EntityRef> Eq for EntitySet<K> {}

impl<K: EntityRef> Extend<K> for EntitySet<K> {
    fn extend<I: IntoIterator<Item = K>>(&mut self, iter: I) {
        for k in iter {
            self.insert(k);
        }
    }
}

impl<K: EntityRef> FromIterator<K> for EntitySet<K> {
    fn from_iter<I: IntoIterator<Item = K>>(iter: I) -> Self {
        let mut set = Self::new();
        set.extend(iter);
        set
    }
}

impl<K: EntityRef + fmt::Debug> fmt::Debug for EntitySet<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entity_set_inserts_removes_and_iterates_in_order() {
        let mut s: EntitySet<Value> = EntitySet::new();
        assert!(s.is_empty());
        assert!(!s.contains(Value::new(3)));
        assert!(!s.remove(Value::new(500)));
        for i in [130, 3, 64, 63, 0] {
            assert!(s.insert(Value::new(i)));
        }
        assert!(!s.insert(Value::new(64)));
        assert_eq!(s.len(), 5);
        assert!(s.contains(Value::new(63)) && s.contains(Value::new(130)));
        assert!(!s.contains(Value::new(1)) && !s.contains(Value::new(129)));
        let order: Vec<usize> = s.iter().map(|v| v.index()).collect();
        assert_eq!(order, [0, 3, 63, 64, 130]);
        assert!(s.remove(Value::new(130)));
        assert!(!s.remove(Value::new(130)));
        assert!(!s.contains(Value::new(130)));
        assert_eq!(s.len(), 4);
        s.clear();
        assert!(s.is_empty() && s.iter().next().is_none());
    }

    #[test]
    fn entity_sets_equal_by_contents() {
        let a: EntitySet<Block> = [Block::new(1), Block::new(2)].into_iter().collect();
        let mut b: EntitySet<Block> = [Block::new(2), Block::new(200)].into_iter().collect();
        assert_ne!(a, b);
        b.remove(Block::new(200));
        b.insert(Block::new(1));
        // `b` keeps the words its 200th bit needed; the sets are still equal.
        assert_eq!(a, b);
        assert_eq!(format!("{a:?}"), "{block1, block2}");
    }

    #[test]
    fn secondary_map_iterates_in_entity_order() {
        let mut m: SecondaryMap<Inst, Option<u32>> = SecondaryMap::new();
        m[Inst::new(2)] = Some(7);
        m[Inst::new(0)] = Some(5);
        let set: Vec<(usize, u32)> = m
            .iter()
            .filter_map(|(k, v)| Some((k.index(), (*v)?)))
            .collect();
        assert_eq!(set, [(0, 5), (2, 7)]);
        assert_eq!(m[Inst::new(9)], None);
    }
}
