//! The builtin library: the OpenCL C builtins that are not one IR operation (the math
//! functions of 6.15.2, the relational classifications of 6.15.6, ...), written once in
//! OpenCL C (the `.cl` files beside this one) and shared by every device (DESIGN.md).
//!
//! The library's source lives in the `ferrocl-builtins` crate, which compiles it with
//! [`compile`] when ferrocl is built and embeds the module. Its functions implement each
//! builtin for one scalar type: `__cl_sin_float`,
//! `__cl_frexp_float_ptr_int`, ... — the scalar mangled name of lowering (`sin.float`,
//! `frexp.float.ptr_int`) with `.` spelled `_`. [`link_with`] gives each declaration of a program
//! that names such a builtin (`sin.float4`, `frexp.float4.global_ptr_int4`) a body that calls
//! the scalar function lane by lane, and links in the library functions it reaches; the
//! standard inlining pass then inlines them like any other function.
//!
//! Results written through pointers go to a private temporary that the wrapper copies to the
//! caller's pointer (of any address space), so the library is written with private pointers
//! only.

use std::collections::HashMap;

use ferrocl_ir::entity::{Func, Global, StackSlot, Value};
use ferrocl_ir::inst::{ConvOp, IntCC, Op, UnaryOp};
use ferrocl_ir::types::{AddrSpace, Type};
use ferrocl_ir::{FunctionBuilder, Module};

use crate::builtins::Builtin;
use crate::{parse_build_options, Target};

/// The prefix of every library function's name.
pub(crate) const PREFIX: &str = "__cl_";

/// Compiles and optimizes the library's source files (name, text), as one translation unit in
/// their order; the error is the compiler's log.
pub fn compile(sources: &[(&str, &str)]) -> Result<Module, String> {
    compile_for(sources, &Target::full_profile_cpu())
}

/// [`compile`] for `target`.
fn compile_for(sources: &[(&str, &str)], target: &Target) -> Result<Module, String> {
    // Never contracted, whatever the device: the library's error analyses (argument
    // reductions, double-float arithmetic) count one rounding for each operation written,
    // and use `fma` where they mean one rounding for two.
    let mut source = String::from("#pragma OPENCL FP_CONTRACT OFF\n");
    for (name, text) in sources {
        source.push_str(&format!("#line 1 \"{name}\"\n{text}\n"));
    }
    // The library computes in double wherever that keeps a float result within its bound,
    // whether or not the device offers double to programs. Its error analyses count float
    // divisions and square roots as correctly rounded: they are.
    let options = parse_build_options("-cl-std=CL1.2 -cl-fp32-correctly-rounded-divide-sqrt")
        .map_err(|e| e.to_string())?;
    let compilation = crate::compile(&source, &options, target, &[]);
    let Some(program) = compilation.program else {
        return Err(format!(
            "the builtin library does not compile:\n{}",
            compilation.log
        ));
    };
    let mut module = crate::lower(&program).map_err(|e| format!("builtin library: {e}"))?;
    resolve_within(&mut module)?;
    let mut pm = ferrocl_ir::passes::PassManager::new();
    for pass in ["mem2reg", "widen", "fold", "simplify_cfg", "dce", "cse"] {
        pm.add(pass).expect("standard pass exists");
    }
    pm.run(&mut module)
        .map_err(|e| format!("builtin library: {e}"))?;
    Ok(module)
}

/// Gives bodies to the library's own calls of builtins it implements (a library function
/// calling `ldexp(x, n)` calls `ldexp.double.int`).
fn resolve_within(module: &mut Module) -> Result<(), String> {
    let decls: Vec<Func> = module
        .funcs
        .iter()
        .filter(|(_, f)| f.is_declaration())
        .map(|(k, _)| k)
        .collect();
    for d in decls {
        if let Some((lib_name, call)) = plan(module, &module.funcs[d].name) {
            let callee = module.func_by_name(&lib_name).expect("planned function");
            build_wrapper(module, d, callee, &call)?;
        }
    }
    Ok(())
}

/// How a call of the builtin `mangled` is made of library functions: the library function
/// named exactly after it (a vector-shaped builtin such as `dot.uchar4.uchar4`, called as it
/// is), or else its scalar form called lane by lane; `None` when `lib` defines neither.
fn plan(lib: &Module, mangled: &str) -> Option<(String, Scalarized)> {
    let defined = |name: &str| {
        lib.func_by_name(name)
            .is_some_and(|f| !lib.funcs[f].is_declaration())
    };
    let exact = library_name(mangled);
    if defined(&exact) {
        let call = scalarize(mangled);
        let whole = Scalarized {
            scalar_name: mangled.to_string(),
            lanes: 1,
            shapes: vec![ArgShape::Scalar; call.shapes.len()],
            vector_truth: false,
        };
        return Some((exact, whole));
    }
    let call = scalarize(mangled);
    let name = library_name(&call.scalar_name);
    defined(&name).then_some((name, call))
}

/// Links the library `library` gives into `module` (asking for it only when a declaration
/// could be one of the library's functions): every declaration of a builtin the library
/// implements gets a body, and the library functions it needs are added. Declarations the
/// library does not implement (device services such as `printf`) stay as they are.
pub fn link_with(
    module: &mut Module,
    library: impl FnOnce() -> Result<&'static Module, String>,
) -> Result<(), String> {
    let names: Vec<(Func, String)> = module
        .funcs
        .iter()
        .filter(|(_, f)| f.is_declaration() && !f.name.starts_with(PREFIX))
        .map(|(k, f)| (k, f.name.clone()))
        .collect();
    // Every builtin the library implements has parameter types in its name.
    if !names.iter().any(|(_, n)| n.contains('.')) {
        return Ok(());
    }
    let lib = library()?;
    let mut planned = Vec::new();
    let mut roots: Vec<String> = Vec::new();
    for (d, name) in names {
        if let Some((lib_name, call)) = plan(lib, &name) {
            if !roots.contains(&lib_name) {
                roots.push(lib_name.clone());
            }
            planned.push((d, lib_name, call));
        }
    }
    if roots.is_empty() {
        return Ok(());
    }
    module.link(extract(lib, &roots))?;
    for (d, lib_name, call) in planned {
        let callee = module.func_by_name(&lib_name).expect("linked function");
        build_wrapper(module, d, callee, &call)?;
    }
    Ok(())
}

/// The library function implementing a scalar mangled name.
fn library_name(scalar: &str) -> String {
    format!("{PREFIX}{}", scalar.replace('.', "_"))
}

/// The functions named `roots` and everything they call, with the globals they use, as a
/// module of their own.
fn extract(lib: &Module, roots: &[String]) -> Module {
    let mut fmap: HashMap<Func, Func> = HashMap::new();
    let mut gmap: HashMap<Global, Global> = HashMap::new();
    let mut order = Vec::new();
    let mut work: Vec<Func> = roots.iter().filter_map(|r| lib.func_by_name(r)).collect();
    let mut out = Module::new();
    while let Some(f) = work.pop() {
        if fmap.contains_key(&f) {
            continue;
        }
        let func = &lib.funcs[f];
        fmap.insert(f, out.add_function(&func.name, func.sig.clone()));
        order.push(f);
        for (_, data) in func.dfg.insts.iter() {
            match data.op {
                Op::Call(c) => work.push(c),
                Op::GlobalAddr(g) => {
                    gmap.entry(g)
                        .or_insert_with(|| out.add_global(lib.globals[g].clone()));
                }
                _ => {}
            }
        }
    }
    for f in order {
        let mut body = lib.funcs[f].clone();
        for (_, data) in body.dfg.insts.iter_mut() {
            match &mut data.op {
                Op::Call(c) => *c = fmap[c],
                Op::GlobalAddr(g) => *g = gmap[g],
                _ => {}
            }
        }
        out.funcs[fmap[&f]] = body;
    }
    out
}

/// How one argument of a (vector) builtin call feeds the scalar library function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ArgShape {
    /// The same scalar for every lane.
    Scalar,
    /// Lane `i` of a vector.
    Lane,
    /// A pointer to a scalar (lanes == 1) or a vector whose lane `i` is at
    /// `i * elem_bytes`: the library writes one element there.
    Ptr { elem_bytes: u32 },
}

/// A mangled builtin name taken apart: its scalar form and each argument's shape.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Scalarized {
    scalar_name: String,
    lanes: u32,
    shapes: Vec<ArgShape>,
    /// A relational builtin on vectors: each lane's 1 for true becomes -1 (6.15.6: vector
    /// forms return "-1 (i.e. all bits set) if the specified relation is true").
    vector_truth: bool,
}

fn split_vector(ty: &str) -> (&str, u32) {
    let digits = ty.len() - ty.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (base, n) = ty.split_at(ty.len() - digits);
    (base, n.parse().unwrap_or(1))
}

fn elem_bytes(base: &str) -> u32 {
    match base {
        "char" | "uchar" | "bool" => 1,
        "short" | "ushort" | "half" => 2,
        "int" | "uint" | "float" => 4,
        _ => 8,
    }
}

/// Takes apart a mangled builtin name (`sin.float4`, `frexp.float4.global_ptr_int4`,
/// `ldexp.float4.int`).
fn scalarize(mangled: &str) -> Scalarized {
    let mut parts = mangled.split('.');
    let name = parts.next().unwrap_or_default();
    let mut scalar = vec![name.to_string()];
    let mut shapes = Vec::new();
    let mut lanes = 1;
    for ty in parts {
        if let Some(pos) = ty.find("_ptr_") {
            let (base, n) = split_vector(&ty[pos + 5..]);
            scalar.push(format!("ptr_{base}"));
            shapes.push(ArgShape::Ptr {
                elem_bytes: elem_bytes(base),
            });
            lanes = lanes.max(n);
        } else {
            let (base, n) = split_vector(ty);
            scalar.push(base.to_string());
            shapes.push(if n > 1 {
                ArgShape::Lane
            } else {
                ArgShape::Scalar
            });
            lanes = lanes.max(n);
        }
    }
    Scalarized {
        scalar_name: scalar.join("."),
        lanes,
        shapes,
        vector_truth: lanes > 1
            && Builtin::from_name(name).is_some_and(Builtin::is_relational_test),
    }
}

/// Gives declaration `d` the body that calls `callee` (the scalar library function) for each
/// lane of its arguments.
fn build_wrapper(
    module: &mut Module,
    d: Func,
    callee: Func,
    call: &Scalarized,
) -> Result<(), String> {
    let lib_sig = module.funcs[callee].sig.clone();
    let name = module.funcs[d].name.clone();
    if lib_sig.params.len() != call.shapes.len()
        || module.funcs[d].sig.params.len() != call.shapes.len()
    {
        return Err(format!(
            "builtin @{name}: the library's @{} takes {} arguments",
            module.funcs[callee].name,
            lib_sig.params.len()
        ));
    }
    for (i, shape) in call.shapes.iter().enumerate() {
        if matches!(shape, ArgShape::Ptr { .. })
            && lib_sig.params[i].addr_space() != Some(AddrSpace::Private)
        {
            return Err(format!("builtin @{name}: library pointers must be private"));
        }
    }
    let looped = call.lanes > 1 && weight(module, callee, &mut HashMap::new()) > LOOP_WEIGHT;
    let func = &mut module.funcs[d];
    let ret = func.sig.ret;
    let param_tys = func.sig.params.clone();
    let mut b = FunctionBuilder::new(func);
    b.create_entry_block();
    let entry = b.current_block().expect("entry block");
    let params: Vec<_> = b.block_params(entry).to_vec();
    // One private temporary per pointer argument, reused by every lane.
    let temps: Vec<Option<StackSlot>> = call
        .shapes
        .iter()
        .map(|shape| match shape {
            ArgShape::Ptr { elem_bytes } => Some(b.func.create_slot(*elem_bytes, *elem_bytes)),
            _ => None,
        })
        .collect();
    let lanes = Lanes {
        call,
        callee,
        ret: lib_sig.ret,
        params: &params,
        temps: &temps,
    };
    let value = if looped {
        lanes.looped(&mut b, &param_tys, ret)
    } else {
        lanes.unrolled(&mut b, ret)
    }
    .map_err(|e| format!("builtin @{name}: {e}"))?;
    b.ret(value);
    b.finish();
    Ok(())
}

/// A library function heavier than this (instructions, its callees included) is called from
/// a loop over the lanes of a vector call rather than once per lane in straight-line code:
/// after inlining, a `sin(float16)` is one copy of `sin`, not sixteen (and the unrolling pass
/// still unrolls the loop when the copies are few and small).
const LOOP_WEIGHT: usize = 40;

/// The instructions of `f` and of everything it calls.
fn weight(module: &Module, f: Func, memo: &mut HashMap<Func, usize>) -> usize {
    if let Some(&w) = memo.get(&f) {
        return w;
    }
    // A call cycle (none in OpenCL C) counts as heavy.
    memo.insert(f, usize::MAX / 4);
    let func = &module.funcs[f];
    let mut w = 0usize;
    for &b in func.layout.blocks() {
        for &i in func.layout.block_insts(b) {
            w += 1;
            if let Op::Call(c) = func.dfg.insts[i].op {
                w = w.saturating_add(weight(module, c, memo));
            }
        }
    }
    memo.insert(f, w);
    w
}

/// The bytes a private array of `ty`'s lanes takes (3-lane vectors as 4).
fn array_bytes(ty: Type) -> u32 {
    ty.lanes().next_power_of_two() * ty.lane_bytes()
}

/// `base + index * bytes`.
fn element(b: &mut FunctionBuilder, base: Value, index: Value, bytes: u32) -> Value {
    let size = b.iconst(Type::I64, i64::from(bytes));
    let off = b.imul(index, size);
    b.ptradd(base, off)
}

/// The calls of a wrapper: the scalar library function once per lane.
struct Lanes<'a> {
    call: &'a Scalarized,
    callee: Func,
    ret: Option<Type>,
    /// The wrapper's parameters.
    params: &'a [Value],
    /// The private temporary of each pointer argument.
    temps: &'a [Option<StackSlot>],
}

impl Lanes<'_> {
    /// Calls the library function with `args`, copies what it wrote through pointers to lane
    /// `index` of the caller's pointers, and gives the result as a lane of a vector of
    /// `lane_ty` (a relational's 1 for true becomes -1) or as it is.
    fn call_lane(
        &self,
        b: &mut FunctionBuilder,
        args: &[Value],
        index: Value,
        lane_ty: Option<Type>,
    ) -> Option<Value> {
        let r = b.call(self.callee, self.ret, args);
        for (i, shape) in self.call.shapes.iter().enumerate() {
            if let ArgShape::Ptr { elem_bytes } = *shape {
                let ty = lib_elem_type(module_elem(&self.call.scalar_name, i));
                let tmp = b.slot_addr(self.temps[i].expect("temporary"));
                let v = b.load(ty, tmp, elem_bytes, false);
                let dst = element(b, self.params[i], index, elem_bytes);
                b.store(v, dst, elem_bytes, false);
            }
        }
        let (Some(mut x), Some(lane_ty)) = (r, lane_ty) else {
            return r;
        };
        if self.call.vector_truth {
            if lane_ty != b.value_type(x) {
                x = b.convert(ConvOp::Sext, x, lane_ty);
            }
            x = b.unary(UnaryOp::Ineg, x);
        }
        Some(x)
    }

    /// The argument of parameter `i` for one lane: the scalar, lane `lane` of `vector`, or
    /// the pointer's temporary.
    fn arg(
        &self,
        b: &mut FunctionBuilder,
        i: usize,
        lane: impl FnOnce(&mut FunctionBuilder) -> Value,
    ) -> Value {
        match self.call.shapes[i] {
            ArgShape::Scalar => self.params[i],
            ArgShape::Lane => lane(b),
            ArgShape::Ptr { .. } => b.slot_addr(self.temps[i].expect("temporary")),
        }
    }

    /// Straight-line code: one call per lane, lanes taken from and put into vector values.
    fn unrolled(
        &self,
        b: &mut FunctionBuilder,
        ret: Option<Type>,
    ) -> Result<Option<Value>, String> {
        // A library function that returns the vector itself (an image read's float4) is
        // called once, its result the wrapper's.
        let mut result = ret
            .filter(|t| t.is_vector() && self.ret != Some(*t))
            .map(|t| b.undef(t));
        let mut scalar = None;
        for lane in 0..self.call.lanes {
            let args: Vec<Value> = (0..self.params.len())
                .map(|i| self.arg(b, i, |b| b.extractlane(self.params[i], lane as u8)))
                .collect();
            let index = b.iconst(Type::I64, i64::from(lane));
            let lane_ty = result.map(|v| b.value_type(v).lane_type());
            let r = self.call_lane(b, &args, index, lane_ty);
            match (result, r) {
                (Some(vec), Some(x)) => result = Some(b.insertlane(vec, x, lane as u8)),
                (None, r) => scalar = r,
                (Some(_), None) => return Err("the library function returns nothing".into()),
            }
        }
        Ok(result.or(scalar))
    }

    /// A loop over the lanes: vector arguments and the result go through private arrays, and
    /// one call serves every lane.
    fn looped(
        &self,
        b: &mut FunctionBuilder,
        param_tys: &[Type],
        ret: Option<Type>,
    ) -> Result<Option<Value>, String> {
        let mut arrays = Vec::with_capacity(self.params.len());
        for (i, shape) in self.call.shapes.iter().enumerate() {
            arrays.push(match shape {
                ArgShape::Lane => {
                    // Stored lane by lane, as the loop reads it: where the loop is unrolled,
                    // every access of the array is one lane at a constant offset, which
                    // `mem2reg` promotes (a whole-vector store overlapping them it does not).
                    let ty = param_tys[i];
                    let lane = ty.lane_type();
                    let slot = b.func.create_slot(array_bytes(ty), ty.lane_bytes());
                    let base = b.slot_addr(slot);
                    for n in 0..self.call.lanes {
                        let x = b.extractlane(self.params[i], n as u8);
                        let at = b.iconst(Type::I64, i64::from(n));
                        let p = element(b, base, at, lane.bytes());
                        b.store(x, p, lane.bytes(), false);
                    }
                    Some(slot)
                }
                _ => None,
            });
        }
        let result = ret.filter(|t| t.is_vector()).map(|t| {
            let slot = b.func.create_slot(array_bytes(t), t.lane_bytes());
            (slot, t)
        });
        // `for (k = 0; k < lanes; k++)`, tested at the top: the unrolling pass takes loops
        // that leave from their header only, and the library function's body, once inlined,
        // may be several blocks (a bottom test would sit in the last of them). Unrolled, the
        // arrays' offsets are constants and they become values again.
        let header = b.create_block();
        let k = b.append_block_param(header, Type::I64);
        let body = b.create_block();
        let exit = b.create_block();
        let zero = b.iconst(Type::I64, 0);
        b.jump(header, &[zero]);
        b.switch_to_block(header);
        let lanes = b.iconst(Type::I64, i64::from(self.call.lanes));
        let more = b.icmp(IntCC::Ult, k, lanes);
        b.brif(more, body, &[], exit, &[]);
        b.switch_to_block(body);
        b.seal_block(body);
        let args: Vec<Value> = (0..self.params.len())
            .map(|i| {
                self.arg(b, i, |b| {
                    let lane = param_tys[i].lane_type();
                    let base = b.slot_addr(arrays[i].expect("array"));
                    let p = element(b, base, k, lane.bytes());
                    b.load(lane, p, lane.bytes(), false)
                })
            })
            .collect();
        let r = self.call_lane(b, &args, k, result.map(|(_, t)| t.lane_type()));
        if let Some((slot, t)) = result {
            let x = r.ok_or("the library function returns nothing")?;
            let base = b.slot_addr(slot);
            let p = element(b, base, k, t.lane_bytes());
            b.store(x, p, t.lane_bytes(), false);
        }
        let one = b.iconst(Type::I64, 1);
        let next = b.iadd(k, one);
        b.jump(header, &[next]);
        b.seal_block(header);
        b.switch_to_block(exit);
        b.seal_block(exit);
        Ok(result.map(|(slot, t)| {
            // Read back lane by lane, for the same reason.
            let lane = t.lane_type();
            let base = b.slot_addr(slot);
            let mut v = b.undef(t);
            for n in 0..self.call.lanes {
                let at = b.iconst(Type::I64, i64::from(n));
                let p = element(b, base, at, lane.bytes());
                let x = b.load(lane, p, lane.bytes(), false);
                v = b.insertlane(v, x, n as u8);
            }
            v
        }))
    }
}

/// The element type a library function writes through its `i`-th argument (from the scalar
/// mangled name: `frexp.float.ptr_int` writes an int through argument 1).
fn module_elem(scalar: &str, i: usize) -> &str {
    scalar
        .split('.')
        .nth(i + 1)
        .and_then(|t| t.strip_prefix("ptr_"))
        .unwrap_or("")
}

fn lib_elem_type(base: &str) -> Type {
    match base {
        "char" | "uchar" => Type::I8,
        "short" | "ushort" => Type::I16,
        "int" | "uint" => Type::I32,
        "half" => Type::F16,
        "float" => Type::F32,
        "double" => Type::F64,
        _ => Type::I64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_scalarize() {
        let c = scalarize("frexp.float3.global_ptr_int3");
        assert_eq!(c.scalar_name, "frexp.float.ptr_int");
        assert_eq!(c.lanes, 3);
        assert_eq!(
            c.shapes,
            vec![ArgShape::Lane, ArgShape::Ptr { elem_bytes: 4 }]
        );
        assert_eq!(
            scalarize("ldexp.double8.int").shapes,
            vec![ArgShape::Lane, ArgShape::Scalar]
        );
        assert!(scalarize("isnan.float4").vector_truth);
        assert!(!scalarize("isnan.float").vector_truth);
        assert_eq!(
            library_name("frexp.float.ptr_int"),
            "__cl_frexp_float_ptr_int"
        );
    }

    /// The `fma`s of every library function but `mad`'s (an `fma` exactly where the device's
    /// is fast).
    fn fmas(module: &Module) -> usize {
        module
            .funcs
            .iter()
            .filter(|(_, f)| !f.name.starts_with("__cl_mad_"))
            .flat_map(|(_, f)| f.dfg.insts.iter())
            .filter(|(_, i)| matches!(i.op, Op::Fma))
            .count()
    }

    #[test]
    fn library_is_never_contracted() {
        let mut fast = Target::full_profile_cpu();
        fast.fast_fma = true;
        let sources = ferrocl_builtins::SOURCES;
        let slow = compile_for(sources, &Target::full_profile_cpu()).expect("compiles");
        let on_fast = compile_for(sources, &fast).expect("compiles");
        assert_eq!(fmas(&on_fast), fmas(&slow));
        // The library has expressions a device with fast fma would contract without the
        // pragma.
        let unprotected: Vec<(&str, String)> = sources
            .iter()
            .map(|(name, text)| (*name, format!("#pragma OPENCL FP_CONTRACT ON\n{text}")))
            .collect();
        let unprotected: Vec<(&str, &str)> =
            unprotected.iter().map(|(n, t)| (*n, t.as_str())).collect();
        let contracted = compile_for(&unprotected, &fast).expect("compiles");
        assert!(fmas(&contracted) > fmas(&slow));
    }

    /// The library's index agrees with the catalogue: every math function of 6.15.2 but
    /// `fma` (always one instruction) and every relational test of 6.15.6 has a library
    /// function named after it and a scalar type.
    #[test]
    fn library_implements_the_catalogue_math_and_relational_tests() {
        use crate::builtins::catalogue::{Math, Relational};
        let m = ferrocl_builtins::library().unwrap_or_else(|e| panic!("{e}"));
        let math = Math::ALL
            .iter()
            .filter(|&&f| f != Math::Fma)
            .map(|&f| Builtin::Math(f));
        let tests = Relational::ALL
            .iter()
            .map(|&f| Builtin::Relational(f))
            .filter(|b| b.is_relational_test());
        for b in math.chain(tests) {
            let prefix = format!("{PREFIX}{b}_");
            let implemented = m.funcs.iter().any(|(_, f)| {
                !f.is_declaration()
                    && f.name.strip_prefix(&prefix).is_some_and(|types| {
                        ["half", "float", "double", "uint", "ulong", "ushort"]
                            .iter()
                            .any(|t| types.starts_with(t))
                    })
            });
            assert!(implemented, "no library function for {b}");
        }
    }

    #[test]
    fn library_is_valid_ir() {
        let m = ferrocl_builtins::library().unwrap_or_else(|e| panic!("{e}"));
        assert!(m.func_by_name("__cl_isnan_float").is_some());
        ferrocl_ir::verify_module(m).unwrap_or_else(|e| panic!("{e:?}"));
    }
}
