//! How IR values are held in Cranelift values: scalars as one value, vectors in SIMD registers.
//!
//! A vector of `i8`, `i16`, `i32`, `i64`, `f32`, `f64` or pointer lanes lives in 128-bit
//! Cranelift vectors (`i8x16` ... `f64x2`), its lanes in order: a `float4` is one `f32x4`, a
//! `float16` four, a `double3` two `f64x2` (the 3-lane vectors take 4 lanes, as in memory), a
//! `float2` the low half of one `f32x4`. Lanes past the vector's own (padding) hold unspecified
//! values: no instruction lets them reach a result, a store or a trap (the lane-wise
//! operations touch the vector's own lanes only).
//!
//! An `i1` vector (a comparison's result) is a mask: each lane all ones or all zeros, in
//! integer lanes as wide as the lanes of the comparison that made it, so that a comparison of
//! `f32x4`s feeds a `bitselect` of `f32x4`s with no conversion. Other `i1` vectors (block
//! parameters, constants) use 32-bit lanes; [`Translator::parts_as`] converts between widths.
//!
//! `half` vectors stay one value per lane: the device only loads, stores and converts them.
//! Every operation without a SIMD form (`isel.rs` decides) works on the lanes
//! ([`Translator::get`]), which are extracted from and inserted back into the vectors here.

use ferrocl_ir::entity::SecondaryMap;

use cranelift_codegen::ir::{
    self as cl, types as clt, ConstantData, Endianness, InstBuilder, MemFlagsData,
};
use ferrocl_ir::{BinaryOp, ConvOp, Op, Type, UnaryOp, Value, ValueDef};

use super::{lane_ty, Translator};
use crate::CompileError;

/// How one IR value is held.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Repr {
    /// One Cranelift value per lane, of the lane's type: scalars.
    Lanes { ty: cl::Type, lanes: u32 },
    /// `parts` 128-bit vectors of type `part` holding `lanes` lanes in order; `mask` for an
    /// `i1` vector, whose lanes are all ones or all zeros.
    Simd {
        part: cl::Type,
        parts: u32,
        lanes: u32,
        mask: bool,
    },
}

impl Repr {
    /// The SIMD form of `lanes` lanes of `lane`.
    pub(super) fn simd(lane: cl::Type, lanes: u32, mask: bool) -> Repr {
        let part = vector_of(lane);
        Repr::Simd {
            part,
            parts: lanes.div_ceil(part.lane_count()),
            lanes,
            mask,
        }
    }

    /// How many Cranelift values hold the value.
    pub(super) fn count(self) -> u32 {
        match self {
            Repr::Lanes { lanes, .. } => lanes,
            Repr::Simd { parts, .. } => parts,
        }
    }
}

/// The 128-bit vector type of `lane` lanes.
pub(super) fn vector_of(lane: cl::Type) -> cl::Type {
    lane.by(128 / lane.bits()).expect("lanes of 8 to 64 bits")
}

/// The integer type of `bits` bits.
pub(super) fn int_of(bits: u32) -> cl::Type {
    cl::Type::int(bits as u16).expect("8 to 64 bits")
}

/// Flags for reinterpreting vectors whose lane counts differ (Cranelift asks for the byte
/// order then).
pub(super) fn vector_cast() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

/// The representation of a value of IR type `t` that is not an `i1` vector.
pub(super) fn repr_of_type(t: Type) -> Result<Repr, CompileError> {
    let ty = lane_ty(t)?;
    let lanes = t.lanes();
    Ok(if lanes == 1 {
        Repr::Lanes { ty, lanes }
    } else {
        Repr::simd(ty, lanes, false)
    })
}

impl Translator<'_, '_> {
    /// How value `v` is held.
    pub(super) fn repr(&mut self, v: Value) -> Result<Repr, CompileError> {
        let t = self.f.dfg.value_type(v);
        if t.lanes() > 1 && t.lane_type() == Type::I1 {
            let bits = self.mask_bits(v, 0);
            return Ok(Repr::simd(int_of(bits), t.lanes(), true));
        }
        repr_of_type(t)
    }

    /// The lane width of mask `v`: that of the comparison it comes from, through the logic
    /// operations on masks; 32 for the others.
    fn mask_bits(&mut self, v: Value, depth: u32) -> u32 {
        if let Some(bits) = self.mask_bits[v] {
            return bits;
        }
        let dfg = &self.f.dfg;
        let lane_bits = |v: Value| {
            let t = dfg.value_type(v).lane_type();
            if t.is_ptr() {
                64
            } else {
                t.bits().clamp(8, 64)
            }
        };
        let bits = match dfg.value_def(dfg.resolve(v)) {
            ValueDef::Result(inst) if depth < 16 => {
                let data = &dfg.insts[inst];
                match &data.op {
                    Op::Icmp(_) | Op::Fcmp(_) => lane_bits(data.args[0]),
                    Op::Convert(ConvOp::Trunc) => lane_bits(data.args[0]),
                    Op::Binary(BinaryOp::Band | BinaryOp::Bor | BinaryOp::Bxor)
                    | Op::Unary(UnaryOp::Bnot) => {
                        let a = data.args[0];
                        self.mask_bits(a, depth + 1)
                    }
                    Op::Select => {
                        let a = data.args[1];
                        self.mask_bits(a, depth + 1)
                    }
                    _ => 32,
                }
            }
            _ => 32,
        };
        self.mask_bits[v] = Some(bits);
        bits
    }

    /// Vector kernel argument `param`, at `offset` in the argument block `args`, loaded part
    /// by part; `None` for arguments that are not whole 128-bit parts.
    pub(super) fn load_vector_arg(
        &mut self,
        param: Value,
        args: cl::Value,
        offset: i32,
    ) -> Result<Option<Vec<cl::Value>>, CompileError> {
        let Repr::Simd {
            part,
            parts,
            lanes,
            mask: false,
        } = self.repr(param)?
        else {
            return Ok(None);
        };
        if lanes * part.lane_type().bytes() != parts * 16 {
            return Ok(None);
        }
        // The block is written before the kernel runs and never during; its alignment is
        // the argument's own, not necessarily 16.
        let flags = MemFlagsData::new().with_notrap().with_readonly();
        Ok(Some(
            (0..parts as i32)
                .map(|k| self.b.ins().load(part, flags, args, offset + 16 * k))
                .collect(),
        ))
    }

    /// The Cranelift values holding `v`, as its representation has them.
    pub(super) fn parts(&mut self, v: Value) -> Result<Vec<cl::Value>, CompileError> {
        if let Some(vals) = &self.vals[v] {
            return Ok(vals.clone());
        }
        let vars = self.vars_of(v)?;
        Ok(vars.into_iter().map(|var| self.b.use_var(var)).collect())
    }

    /// Defines `v` from values in its representation.
    pub(super) fn set_parts(&mut self, v: Value, vals: Vec<cl::Value>) -> Result<(), CompileError> {
        // A value without a variable, unless a use before its definition made one.
        if self.direct.contains(v) && self.vars[v].is_none() {
            debug_assert!(self.vals[v].is_none(), "{v} defined twice");
            self.vals[v] = Some(vals);
            return Ok(());
        }
        let vars = self.vars_of(v)?;
        debug_assert_eq!(vars.len(), vals.len());
        for (var, val) in vars.into_iter().zip(vals) {
            self.b.def_var(var, val);
        }
        Ok(())
    }

    /// `v` in representation `want` (which differs from `v`'s own only for masks of another
    /// width, or when one of them is lane-wise).
    pub(super) fn parts_as(
        &mut self,
        v: Value,
        want: Repr,
    ) -> Result<Vec<cl::Value>, CompileError> {
        let have = self.repr(v)?;
        let parts = self.parts(v)?;
        Ok(self.convert_repr(parts, have, want))
    }

    /// Converts values from representation `have` to `want` (of the same lane count).
    pub(super) fn convert_repr(
        &mut self,
        parts: Vec<cl::Value>,
        have: Repr,
        want: Repr,
    ) -> Vec<cl::Value> {
        if have == want {
            return parts;
        }
        if let (
            Repr::Simd {
                part: from,
                mask: true,
                lanes,
                ..
            },
            Repr::Simd {
                part: to,
                mask: true,
                ..
            },
        ) = (have, want)
        {
            return self.convert_mask(parts, from.lane_bits(), to.lane_bits(), lanes);
        }
        let lanes = self.lanes_of(parts, have);
        self.parts_of_lanes(lanes, want)
    }

    /// The lanes of a value held as `repr` (masks as `i8` 0 or 1, like scalar `i1`s).
    pub(super) fn lanes_of(&mut self, parts: Vec<cl::Value>, repr: Repr) -> Vec<cl::Value> {
        let Repr::Simd {
            part, lanes, mask, ..
        } = repr
        else {
            return parts;
        };
        let per = part.lane_count();
        (0..lanes)
            .map(|i| {
                let x = self
                    .b
                    .ins()
                    .extractlane(parts[(i / per) as usize], (i % per) as u8);
                if mask {
                    let x = if part.lane_bits() > 8 {
                        self.b.ins().ireduce(clt::I8, x)
                    } else {
                        x
                    };
                    self.b.ins().band_imm_s(x, 1)
                } else {
                    x
                }
            })
            .collect()
    }

    /// A value held as `repr` from its lanes (masks from `i8` 0 or 1).
    pub(super) fn parts_of_lanes(&mut self, lanes: Vec<cl::Value>, repr: Repr) -> Vec<cl::Value> {
        let Repr::Simd {
            part, parts, mask, ..
        } = repr
        else {
            return lanes;
        };
        let lanes: Vec<cl::Value> = if mask {
            lanes.into_iter().map(|x| self.mask_lane(x, part)).collect()
        } else {
            lanes
        };
        let per = part.lane_count() as usize;
        (0..parts as usize)
            .map(|p| {
                let own = &lanes[p * per..lanes.len().min((p + 1) * per)];
                self.build_part(own, part)
            })
            .collect()
    }

    /// A vector of type `part` whose first lanes are `lanes` (the rest repeat the first).
    pub(super) fn build_part(&mut self, lanes: &[cl::Value], part: cl::Type) -> cl::Value {
        let mut v = self.b.ins().splat(part, lanes[0]);
        for (i, &x) in lanes.iter().enumerate().skip(1) {
            v = self.b.ins().insertlane(v, x, i as u8);
        }
        v
    }

    /// A scalar `i1` (an `i8` 0 or 1) as a mask lane of vector type `part`: all ones or zeros.
    pub(super) fn mask_lane(&mut self, x: cl::Value, part: cl::Type) -> cl::Value {
        let ones = self.b.ins().ineg(x);
        let lane = part.lane_type();
        if lane == clt::I8 {
            ones
        } else {
            self.b.ins().sextend(lane, ones)
        }
    }

    /// Every lane of representation `repr` set to the lane value `x`.
    pub(super) fn splat_repr(&mut self, x: cl::Value, repr: Repr) -> Vec<cl::Value> {
        match repr {
            Repr::Lanes { lanes, .. } => vec![x; lanes as usize],
            Repr::Simd {
                part, parts, mask, ..
            } => {
                let x = if mask { self.mask_lane(x, part) } else { x };
                let v = self.b.ins().splat(part, x);
                vec![v; parts as usize]
            }
        }
    }

    /// A constant vector of type `part` from its bytes.
    pub(super) fn vconst(&mut self, part: cl::Type, bytes: Vec<u8>) -> cl::Value {
        let c = self.b.func.dfg.constants.insert(ConstantData::from(bytes));
        self.b.ins().vconst(part, c)
    }

    /// Converts a mask of `lanes` lanes from `from`-bit to `to`-bit lanes. Widening
    /// sign-extends and narrowing saturates, both of which keep all-ones and all-zeros lanes.
    fn convert_mask(
        &mut self,
        mut parts: Vec<cl::Value>,
        mut from: u32,
        to: u32,
        lanes: u32,
    ) -> Vec<cl::Value> {
        while from < to {
            let want = lanes.div_ceil(128 / (from * 2)) as usize;
            let mut out = Vec::with_capacity(want);
            for &p in &parts {
                if out.len() < want {
                    out.push(self.b.ins().swiden_low(p));
                }
                if out.len() < want {
                    out.push(self.b.ins().swiden_high(p));
                }
            }
            parts = out;
            from *= 2;
        }
        while from > to {
            let want = lanes.div_ceil(128 / (from / 2)) as usize;
            let mut out = Vec::with_capacity(want);
            for k in 0..want {
                let a = parts[2 * k];
                let b = *parts.get(2 * k + 1).unwrap_or(&a);
                out.push(if from == 64 {
                    // No saturating 64-to-32 narrowing on x86-64: take the low halves.
                    let (a, b) = (self.bytes_of(a), self.bytes_of(b));
                    let sel: Vec<Option<(usize, u8)>> = (0..16)
                        .map(|i| {
                            let lane = i / 4;
                            Some((lane / 2, (lane % 2 * 8 + i % 4) as u8))
                        })
                        .collect();
                    self.shuffle_bytes(&[a, b], &sel, clt::I32X4)
                        .expect("two sources")
                } else {
                    self.b.ins().snarrow(a, b)
                });
            }
            parts = out;
            from /= 2;
        }
        parts
    }

    /// A 128-bit vector as `i8x16`.
    pub(super) fn bytes_of(&mut self, v: cl::Value) -> cl::Value {
        if self.b.func.dfg.value_type(v) == clt::I8X16 {
            v
        } else {
            self.b.ins().bitcast(clt::I8X16, vector_cast(), v)
        }
    }

    /// One vector of type `out` whose byte `i` is byte `sel[i].1` of source `sel[i].0`
    /// (`None`: any byte), with one `shuffle`; `None` when the bytes come from more than two
    /// sources. The sources are `i8x16`.
    pub(super) fn shuffle_bytes(
        &mut self,
        srcs: &[cl::Value],
        sel: &[Option<(usize, u8)>],
        out: cl::Type,
    ) -> Option<cl::Value> {
        let mut used: Vec<usize> = Vec::new();
        for &(s, _) in sel.iter().flatten() {
            if !used.contains(&s) {
                used.push(s);
            }
        }
        if used.len() > 2 {
            return None;
        }
        let first = used.first().copied().unwrap_or(0);
        let identity = used.len() <= 1
            && sel
                .iter()
                .enumerate()
                .all(|(i, s)| s.is_none_or(|(_, b)| usize::from(b) == i));
        let v = if identity {
            srcs[first]
        } else {
            let mask: Vec<u8> = sel
                .iter()
                .map(|s| match s {
                    Some((src, b)) if *src == first => *b,
                    Some((_, b)) => 16 + b,
                    None => 0,
                })
                .collect();
            let second = used.get(1).copied().unwrap_or(first);
            let imm = self.b.func.dfg.immediates.push(ConstantData::from(mask));
            self.b.ins().shuffle(srcs[first], srcs[second], imm)
        };
        Some(if out == clt::I8X16 {
            v
        } else {
            self.b.ins().bitcast(out, vector_cast(), v)
        })
    }

    /// Gathers lanes: lane `i` of the result (representation `out`) is lane `pick[i]` of the
    /// concatenated sources (each `(parts, repr)`), by byte shuffles; `None` when some part
    /// of the result needs more than two source parts.
    pub(super) fn gather_lanes(
        &mut self,
        srcs: &[(Vec<cl::Value>, Repr)],
        pick: &[u32],
        out: Repr,
    ) -> Option<Vec<cl::Value>> {
        let Repr::Simd { part, parts, .. } = out else {
            return None;
        };
        let lb = part.lane_type().bytes();
        let per = part.lane_count();
        // Each source lane's (source part index, lane in part), over all sources' parts.
        let mut lane_at = Vec::new();
        let mut all_parts = Vec::new();
        for (ps, r) in srcs {
            let Repr::Simd {
                part: sp, lanes, ..
            } = *r
            else {
                return None;
            };
            if sp.lane_type().bytes() != lb {
                return None;
            }
            for i in 0..lanes {
                lane_at.push((all_parts.len() + (i / per) as usize, i % per));
            }
            all_parts.extend(ps.iter().copied());
        }
        let originals = all_parts.clone();
        let all_parts: Vec<cl::Value> = all_parts.into_iter().map(|p| self.bytes_of(p)).collect();
        let mut result = Vec::with_capacity(parts as usize);
        for p in 0..parts {
            // This part's source parts, renumbered in the order used.
            let mut local: Vec<usize> = Vec::new();
            let mut sel = Vec::with_capacity(16);
            for l in 0..per {
                let i = p * per + l;
                let Some(&m) = pick.get(i as usize) else {
                    sel.extend(std::iter::repeat_n(None, lb as usize));
                    continue;
                };
                let (sp, sl) = *lane_at.get(m as usize)?;
                let k = match local.iter().position(|&x| x == sp) {
                    Some(k) => k,
                    None => {
                        local.push(sp);
                        local.len() - 1
                    }
                };
                for b in 0..lb {
                    sel.push(Some((k, (sl * lb + b) as u8)));
                }
            }
            if local.len() > 2 {
                return None;
            }
            // A whole source part in place needs no shuffle.
            let in_place = local.len() == 1
                && sel
                    .iter()
                    .enumerate()
                    .all(|(i, s)| s.is_none_or(|(_, b)| usize::from(b) == i));
            if in_place && self.b.func.dfg.value_type(originals[local[0]]) == part {
                result.push(originals[local[0]]);
                continue;
            }
            let srcs: Vec<cl::Value> = local.iter().map(|&k| all_parts[k]).collect();
            let srcs = if srcs.is_empty() {
                vec![all_parts[0]]
            } else {
                srcs
            };
            result.push(self.shuffle_bytes(&srcs, &sel, part)?);
        }
        Some(result)
    }
}

/// Memoized mask widths, per value.
pub(super) type MaskBits = SecondaryMap<Value, Option<u32>>;
