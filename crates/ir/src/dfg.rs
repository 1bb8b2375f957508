//! The data-flow graph: instructions, values and block parameters, apart from their order.
//!
//! The order of blocks and of the instructions in them is the `Layout`'s business; an
//! instruction or block may exist here without being placed (it is then dead).

use crate::entity::{Block, Inst, PrimaryMap, Value};
use crate::inst::InstData;
use crate::types::Type;

/// Where a value comes from.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum ValueDef {
    /// The result of an instruction.
    Result(Inst),
    /// Parameter number `n` of a block.
    Param(Block, u32),
    /// Stands for another value; `Function::resolve_aliases` rewrites uses to the target.
    Alias(Value),
    /// Not defined: a number left free by the text parser, or a removed definition.
    Invalid,
}

/// A value's type and definition.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ValueData {
    /// The type.
    pub ty: Type,
    /// The definition.
    pub def: ValueDef,
}

/// A block's parameters.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct BlockData {
    /// The parameters, in order.
    pub params: Vec<Value>,
}

/// Instructions, values and blocks of one function.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct DataFlowGraph {
    /// Every instruction ever created.
    pub insts: PrimaryMap<Inst, InstData>,
    /// The result of each instruction (parallel to `insts`).
    results: Vec<Option<Value>>,
    /// Every value ever created.
    pub values: PrimaryMap<Value, ValueData>,
    /// Every block ever created.
    pub blocks: PrimaryMap<Block, BlockData>,
}

impl DataFlowGraph {
    /// An empty graph.
    pub fn new() -> Self {
        Self::default()
    }

    /// Creates an instruction, with a result of type `result` if given. It is not placed.
    pub fn make_inst(&mut self, data: InstData, result: Option<Type>) -> Inst {
        let inst = self.insts.push(data);
        self.results.push(None);
        if let Some(ty) = result {
            let v = self.values.push(ValueData {
                ty,
                def: ValueDef::Result(inst),
            });
            self.results[inst.as_u32() as usize] = Some(v);
        }
        inst
    }

    /// The result of `inst`, if it has one.
    pub fn inst_result(&self, inst: Inst) -> Option<Value> {
        self.results.get(inst.as_u32() as usize).copied().flatten()
    }

    /// Makes `v` the result of `inst` (used by the text parser and deserializer, which number
    /// values themselves).
    pub fn attach_result(&mut self, inst: Inst, v: Value) {
        self.values[v].def = ValueDef::Result(inst);
        self.results[inst.as_u32() as usize] = Some(v);
    }

    /// Unlinks the result of `inst` from it, leaving the value's definition to the caller
    /// (the inliner makes a call's result a block parameter).
    pub fn take_result(&mut self, inst: Inst) -> Option<Value> {
        self.results[inst.as_u32() as usize].take()
    }

    /// Removes the result of `inst` (its value becomes `Invalid`).
    pub fn detach_result(&mut self, inst: Inst) {
        if let Some(v) = self.results[inst.as_u32() as usize].take() {
            self.values[v].def = ValueDef::Invalid;
        }
    }

    /// Creates a block without parameters. It is not placed.
    pub fn make_block(&mut self) -> Block {
        self.blocks.push(BlockData::default())
    }

    /// Appends a parameter of type `ty` to `block`.
    pub fn append_block_param(&mut self, block: Block, ty: Type) -> Value {
        let n = self.blocks[block].params.len() as u32;
        let v = self.values.push(ValueData {
            ty,
            def: ValueDef::Param(block, n),
        });
        self.blocks[block].params.push(v);
        v
    }

    /// Appends the existing value `v` as a parameter of `block`.
    pub fn attach_block_param(&mut self, block: Block, v: Value) {
        let n = self.blocks[block].params.len() as u32;
        self.values[v].def = ValueDef::Param(block, n);
        self.blocks[block].params.push(v);
    }

    /// Removes parameter number `index` of `block`; the value becomes `Invalid`. Branches to
    /// `block` must drop their matching argument (the caller's job).
    pub fn remove_block_param(&mut self, block: Block, index: usize) -> Value {
        let v = self.blocks[block].params.remove(index);
        self.values[v].def = ValueDef::Invalid;
        for (i, &p) in self.blocks[block].params.iter().enumerate().skip(index) {
            self.values[p].def = ValueDef::Param(block, i as u32);
        }
        v
    }

    /// The parameters of `block`.
    pub fn block_params(&self, block: Block) -> &[Value] {
        &self.blocks[block].params
    }

    /// Appends to `block` a parameter of each type `like`'s parameters have, in order;
    /// returns them.
    pub fn append_params_like(&mut self, block: Block, like: Block) -> Vec<Value> {
        let types: Vec<Type> = self
            .block_params(like)
            .iter()
            .map(|&p| self.value_type(p))
            .collect();
        types
            .into_iter()
            .map(|ty| self.append_block_param(block, ty))
            .collect()
    }

    /// Creates a value with no definition yet (`Invalid`).
    pub fn make_value(&mut self, ty: Type) -> Value {
        self.values.push(ValueData {
            ty,
            def: ValueDef::Invalid,
        })
    }

    /// The type of `v`.
    pub fn value_type(&self, v: Value) -> Type {
        self.values[v].ty
    }

    /// The definition of `v`.
    pub fn value_def(&self, v: Value) -> ValueDef {
        self.values[v].def
    }

    /// Follows aliases from `v` to a value that is not one.
    pub fn resolve(&self, mut v: Value) -> Value {
        // An alias chain is at most as long as the number of values; stop on a cycle.
        for _ in 0..=self.values.len() {
            match self.values.get(v).map(|d| d.def) {
                Some(ValueDef::Alias(t)) => v = t,
                _ => return v,
            }
        }
        v
    }

    /// Makes `v` an alias of `target`: every use of `v` stands for `target`.
    pub fn change_to_alias(&mut self, v: Value, target: Value) {
        let target = self.resolve(target);
        debug_assert_ne!(v, target, "alias of itself");
        if let ValueDef::Result(inst) = self.values[v].def {
            self.results[inst.as_u32() as usize] = None;
        }
        self.values[v].def = ValueDef::Alias(target);
    }

    /// The integer constant `v` is defined by, zero-extended, if it is an `iconst`.
    pub fn iconst_value(&self, v: Value) -> Option<u64> {
        match self.values.get(v)?.def {
            ValueDef::Result(inst) => match self.insts[inst].op {
                crate::inst::Op::Iconst(c) => Some(c),
                _ => None,
            },
            _ => None,
        }
    }
}
