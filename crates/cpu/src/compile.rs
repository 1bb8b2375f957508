//! The CPU device's compile of a module, stage by stage ([`compile`] lists them): each kernel
//! is vectorized across work-items, turned into a function that runs a whole work-group,
//! cleaned up by the IR passes and translated into Cranelift; the functions kept out of line
//! are translated too, and the JIT links the code. Debug builds verify the IR after each
//! stage (Cranelift verifies its own). When the options ask for it, each stage's text is
//! recorded in the program's [`Listing`] as the stage produced it.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cranelift_codegen::ir::{types as clt, AbiParam};
use cranelift_codegen::isa::{OwnedTargetIsa, TargetIsa};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::FunctionBuilderContext;
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{
    default_libcall_names, DataDescription, FuncId, FuncOrDataId, Linkage, Module as _, ModuleReloc,
};
use ferrocl_device::{ArgSlot, CompileOptions, Listing};
use ferrocl_ir::entity::SecondaryMap;
use ferrocl_ir::timing;
use ferrocl_ir::{AddrSpace, Function, Module};

use crate::codegen::{self, GlobalPlace};
use crate::serial::{Compiled, FunctionCode, KernelLayout, Relocation};
use crate::workgroup::{self, WideKernel, WorkGroupFn};
use crate::{
    abi, code_dump, half, preferred_group_size, printf, vectorize, Code, CompileError,
    CompiledKernel, CpuProgram, GroupFn, WideFn,
};

/// The alignment of the wide-vector tier's functions.
const WIDE_ALIGN: u64 = 64;

/// The stages' names in a [`Listing`]: the module as the device got it, the work-group
/// functions after the IR passes, the Cranelift IR as optimized, and the machine code.
pub const STAGES: [&str; 4] = ["ir", "wg", "clif", "asm"];

/// Compiles every kernel of `module` (and the functions they call out of line). `wide` gives
/// a kernel's W-wide version; `None` asks the vectorizer, as [`crate::default_wide`] does.
pub(crate) fn compile(
    module: &Module,
    wide: Option<&WideFn<'_>>,
    options: &CompileOptions,
    tier: bool,
) -> Result<CpuProgram, CompileError> {
    // The tier takes vectorized functions: none where the build asks for no vectorizing.
    let tier = tier && !options.opt_disable && !options.no_vectorize;
    let mut listing = options.record.then(Listing::default);
    if let Some(l) = &mut listing {
        l.push("ir", &module.to_string());
    }
    let mut times = StageTimes::default();
    let mut kernels = Vec::new();
    let (locals, _) = local_offsets(module);
    let funcs: Vec<&Function> = module
        .funcs
        .iter()
        .map(|(_, f)| f)
        .filter(|f| f.is_kernel() && !f.is_declaration())
        .collect();
    let builds = match wide {
        // A caller's W-wide versions come from a function that may not be shared between
        // threads.
        Some(_) => funcs
            .iter()
            .map(|&f| build_one(module, f, wide, options, tier, &locals))
            .collect(),
        None => build_in_parallel(&funcs, &|f| {
            build_one(module, f, None, options, tier, &locals)
        }),
    };
    for k in builds {
        let k = k?;
        times.merge(&k.times);
        if let Some(l) = &mut listing {
            let sep = if kernels.is_empty() { "" } else { "\n" };
            let text = ferrocl_ir::print_function(module, &k.wg.func);
            let tier = match &k.wide_code {
                Ok(_) => "; wide tier".to_string(),
                Err(why) if tier => format!("; wide tier refused: {why}"),
                Err(_) => String::new(),
            };
            let mut jam = String::new();
            if let (n @ 1.., chunks) = k.wg.jammed {
                jam += &format!(
                    "; {chunks} chunks of a row at a time in {n} of {} regions",
                    k.wg.regions
                );
            }
            if let (n @ 1.., rows) = k.wg.jammed_rows {
                jam += &format!(
                    "; the chunks of {rows} rows at a time in {n} of {} regions",
                    k.wg.regions
                );
            }
            if crate::transposed::transposed_store(k.func).is_some() {
                jam += "; a transposed store";
                // As `transposed::tiles_for`, whose store test this one has just made.
                if crate::wide::few_cores() {
                    jam += ": groups in tiles";
                }
            }
            l.push(
                "wg",
                &format!(
                    "{sep}; kernel {}: {}{jam}{tier}\n{text}",
                    k.func.name, k.note
                ),
            );
        }
        kernels.push(k);
    }
    let mut gen = Generator::new(module, options)?;
    gen.times = times;
    gen.out_of_line_functions(module, &mut listing)?;
    let code = kernels
        .iter()
        .map(|k| gen.kernel(module, k, &mut listing))
        .collect::<Result<Vec<_>, _>>()?;
    let shapes: Vec<KernelShape<'_>> = kernels
        .iter()
        .map(|k| KernelShape {
            func: k.func,
            frame_size: k.wg.frame_size,
            regions: k.wg.regions,
        })
        .collect();
    gen.link(module, &shapes, code, listing)
}

/// A program compiled before, from the bytes [`CpuProgram::serialize`] gave for `module`
/// compiled with `options` (see `serial.rs`): the module's functions, helpers and globals
/// declared as [`compile`] declares them, each function's code placed and relocated. An
/// error where the bytes are not such a program; nothing of them runs before every check
/// has passed.
pub(crate) fn load(
    module: &Module,
    options: &CompileOptions,
    bytes: &[u8],
) -> Result<CpuProgram, CompileError> {
    let bad = |what: &str| CompileError(format!("cached code: {what}"));
    let compiled = Compiled::decode(bytes).ok_or_else(|| bad("not a compiled program"))?;
    let funcs: Vec<&Function> = module
        .funcs
        .iter()
        .map(|(_, f)| f)
        .filter(|f| f.is_kernel() && !f.is_declaration())
        .collect();
    let same = funcs.len() == compiled.kernels.len()
        && funcs
            .iter()
            .zip(&compiled.kernels)
            .all(|(f, k)| f.name == k.name);
    if !same {
        return Err(bad("not the module's kernels"));
    }
    let mut gen = Generator::new(module, options)?;
    let ids = funcs
        .iter()
        .map(|f| gen.declare_kernel(&f.name))
        .collect::<Result<Vec<_>, _>>()?;
    let mut sizes: HashMap<FuncId, usize> = HashMap::new();
    for f in &compiled.functions {
        let id = match gen.jit.declarations().get_name(&f.name) {
            Some(FuncOrDataId::Func(id)) => id,
            _ => return Err(bad("code of a function the module does not have")),
        };
        let definable = gen
            .jit
            .declarations()
            .get_function_decl(id)
            .linkage
            .is_definable();
        if !definable || sizes.contains_key(&id) {
            return Err(bad("code of an imported function, or twice"));
        }
        if !f.align.is_power_of_two() || f.align > 4096 {
            return Err(bad("an alignment out of range"));
        }
        let relocs = f
            .relocs
            .iter()
            .map(|r| r.to_module(&gen.jit, id, f.bytes.len()))
            .collect::<Result<Vec<_>, _>>()?;
        gen.jit
            .define_function_bytes(id, f.align, &f.bytes, &relocs)
            .map_err(|e| bad(&format!("{e:?}")))?;
        sizes.insert(id, f.bytes.len());
    }
    let missing = gen
        .jit
        .declarations()
        .get_functions()
        .any(|(id, d)| d.linkage.is_definable() && !sizes.contains_key(&id));
    if missing {
        return Err(bad("a function without code"));
    }
    let mut shapes = Vec::with_capacity(funcs.len());
    let mut code = Vec::with_capacity(funcs.len());
    for ((&func, k), id) in funcs.iter().zip(&compiled.kernels).zip(ids) {
        let (args, args_size) = abi::arg_layout(func);
        let frame_size = usize::try_from(k.frame_size).map_err(|_| bad("a frame size"))?;
        let call_area = usize::try_from(k.call_area).map_err(|_| bad("a call area"))?;
        let regions = usize::try_from(k.regions).map_err(|_| bad("a region count"))?;
        shapes.push(KernelShape {
            func,
            frame_size,
            regions,
        });
        code.push(KernelCode {
            id,
            size: sizes.get(&id).copied().unwrap_or(0),
            args,
            args_size,
            call_area,
            stream_bytes: k.stream_bytes,
        });
    }
    gen.functions = Some(compiled.functions);
    gen.link(module, &shapes, code, None)
}

/// What linking a kernel needs of its compile.
struct KernelShape<'m> {
    func: &'m Function,
    /// Bytes of context memory per work-item ([`WorkGroupFn::frame_size`]).
    frame_size: usize,
    /// Its regions between barriers ([`WorkGroupFn::regions`]).
    regions: usize,
}

/// Kernel `f`'s stages up to its work-group function and, where the tier takes it, the tier's
/// code (with `tier`); `wide` gives its W-wide version, else the vectorizer.
fn build_one<'m>(
    module: &'m Module,
    f: &'m Function,
    wide: Option<&WideFn<'_>>,
    options: &CompileOptions,
    tier: bool,
    locals: &crate::wide::LocalOffsets,
) -> Result<KernelBuild<'m>, CompileError> {
    let tiered = if tier && wide.is_none() {
        // The wide-vector tier takes whole work-group functions vectorized at its
        // width; one it refuses is built again at the usual width for Cranelift. A
        // kernel that does not vectorize at that width, or that the tier would refuse
        // whatever its work-group function, is refused before that transform.
        let w = crate::wide::width();
        let clock = Instant::now();
        // A group whose required width is below the tier's lanes never fills a chunk of
        // them: every work-item would run one at a time.
        let narrow_group = f
            .kernel
            .as_ref()
            .and_then(|k| k.reqd_work_group_size)
            .is_some_and(|r| r[0] < w && r[0] % 8 == 0);
        let mut vectorized = if narrow_group {
            (None, String::new())
        } else {
            vectorize_kernel(f, None, options, Some(w))
        };
        // One of more than 8 `f64` lanes has no register (`wide::f64_op`): at 8 lanes each
        // is one `zmm`.
        let doubles = vectorized
            .0
            .as_ref()
            .is_some_and(|v| crate::wide::wider_doubles(&v.func));
        let eight = (vectorized.0.is_none() || doubles) && w == 16;
        if eight {
            // A kernel that does not vectorize at 16 lanes (a group 8 wide, whose barriers
            // would sit under the mask of a second row's lanes), or whose group is 8 wide,
            // may at 8: the AVX-512 tier runs those in `ymm` registers, 32 of them with `k`
            // masks, where Cranelift's code takes 4 lanes in 16 `xmm`. CLBlast's `XgemmDirectTN` (8 x 8 groups, 16
            // accumulators a work-item; SGEMM 256 on 2 cores of a Xeon): 2.6 ms at 4 lanes
            // in Cranelift's code, 1.8 in the tier at 8 (PoCL 3.1: 1.2). Its measures are
            // left to the work-group function's (`wide::compile`): the W-wide kernel's
            // weighed its tile loads as a stream's.
            vectorized = vectorize_kernel(f, None, options, Some(8));
        }
        match vectorized {
            (None, _) if eight => Err(format!("not vectorized at {w} or 8")),
            (None, _) => Err(format!("not vectorized at {w}")),
            (Some(v), note) => match crate::wide::refused_early(&v.func, f, !eight) {
                Err(why) => Err(why),
                Ok(()) => {
                    let mut k = build_vectorized(module, f, (Some(v), note), clock)?;
                    attach_wide(&mut k, locals);
                    Ok(k)
                }
            },
        }
    } else {
        Err(String::new())
    };
    Ok(match tiered {
        Ok(k) if k.wide_code.is_ok() => k,
        refused => {
            let mut k = build_kernel(module, f, wide, options, None)?;
            // The tier takes this build's vectorized code where a caller made it at the
            // tier's width, and one work-item at a time where asked to or where that holds
            // 512-bit vectors the tier keeps whole.
            let offered = tier
                && (k.vectorized && wide.is_some()
                    || crate::wide::takes_scalar()
                    || !k.vectorized && crate::tier_takes_wide_scalar(f));
            if offered {
                // This build's code, or why the tier refused it.
                attach_wide(&mut k, locals);
            } else if tier {
                k.wide_code = Err(match refused {
                    Ok(r) => r.wide_code.err().unwrap_or_default(),
                    Err(why) => why,
                });
            }
            k
        }
    })
}

/// The stack of each thread [`build_in_parallel`] starts: a process main thread's (reserved,
/// not committed until used).
const BUILD_STACK: usize = 8 << 20;

/// Runs `build` over `funcs` on up to as many threads as the host has cores (this one among
/// them), each taking the next kernel not yet taken; the results in `funcs`' order. A
/// program's kernels are built independently of each other up to their code (the suite's 31
/// kernels on 2 cores: 55 of the 100 ms of the CPU device's compile are these stages, the rest
/// Cranelift's, which places each function in one JIT module in turn). Threads of their own,
/// not the worker pool's (`pool.rs`): a pool launch holds the pool for one launch at a time,
/// so a build would wait for the kernels another queue is running.
fn build_in_parallel<'m, T: Send>(
    funcs: &[&'m Function],
    build: &(dyn Fn(&'m Function) -> T + Sync),
) -> Vec<T> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(funcs.len());
    if threads <= 1 {
        return funcs.iter().map(|&f| build(f)).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    // Each thread builds the kernels it takes, and this one those left when no thread could
    // be started.
    let take = || {
        let mut mine = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(&f) = funcs.get(i) else {
                return mine;
            };
            mine.push((i, build(f)));
        }
    };
    let mut built: Vec<Option<T>> = funcs.iter().map(|_| None).collect();
    std::thread::scope(|s| {
        // The stack of a process's main thread, where the stages otherwise run.
        let workers: Vec<_> = (1..threads)
            .filter_map(|_| {
                std::thread::Builder::new()
                    .name("ferrocl-build".into())
                    .stack_size(BUILD_STACK)
                    .spawn_scoped(s, take)
                    .ok()
            })
            .collect();
        let mut results = take();
        for w in workers {
            // A panic (an internal error) goes on in the calling thread, as it would have
            // there.
            results.extend(w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
        for (i, k) in results {
            built[i] = Some(k);
        }
    });
    built
        .into_iter()
        .map(|k| k.expect("every kernel is built by one thread"))
        .collect()
}

/// The time each stage of a compile took, summed over the kernels, in the order the stages
/// first ran: `vectorize`, `work-group` (the transform), `wg passes` (the IR passes on the
/// work-group functions), `translate` (IR to Cranelift IR), `motion` (`codegen::motion`),
/// `cranelift` (Cranelift's lowering, register allocation and encoding), `link` (the JIT
/// placing the code).
#[derive(Clone, Debug, Default)]
pub struct StageTimes {
    stages: Vec<(&'static str, Duration)>,
}

impl StageTimes {
    /// Adds the time since `clock` to `stage`, and restarts the clock; returns that time.
    fn lap(&mut self, stage: &'static str, clock: &mut Instant) -> Duration {
        let now = Instant::now();
        let spent = now - *clock;
        *clock = now;
        self.add(stage, spent);
        spent
    }

    /// Adds `spent` to `stage`.
    fn add(&mut self, stage: &'static str, spent: Duration) {
        match self.stages.iter_mut().find(|(s, _)| *s == stage) {
            Some((_, t)) => *t += spent,
            None => self.stages.push((stage, spent)),
        }
    }

    /// Adds each of `other`'s stages.
    fn merge(&mut self, other: &StageTimes) {
        for &(stage, spent) in &other.stages {
            self.add(stage, spent);
        }
    }

    /// The sum of the stages.
    fn total(&self) -> Duration {
        self.stages.iter().map(|(_, t)| *t).sum()
    }

    /// The stages as `name 1.234, name 0.5` (milliseconds).
    fn describe(&self) -> String {
        let parts: Vec<String> = self
            .stages
            .iter()
            .map(|(s, t)| format!("{s} {:.3}", t.as_secs_f64() * 1e3))
            .collect();
        parts.join(", ")
    }

    /// Each stage's name and total time.
    pub fn stages(&self) -> &[(&'static str, Duration)] {
        &self.stages
    }
}

/// One kernel after the IR stages.
struct KernelBuild<'m> {
    /// The kernel as the module has it.
    func: &'m Function,
    /// How many work-items a chunk of the W-wide version runs, or why there is none.
    note: String,
    /// Its work-group function, after the IR passes.
    wg: WorkGroupFn,
    /// The time of its IR stages.
    times: StageTimes,
    /// Whether the work-group function runs a W-wide version.
    vectorized: bool,
    /// Its machine code from the wide-vector tier, or why the tier did not take it.
    wide_code: Result<crate::wide::WideCode, String>,
}

/// Runs kernel `f`'s stages up to its work-group function after the IR passes, vectorized at
/// `width` (else at [`crate::vector_width`], or as `wide` gives).
fn build_kernel<'m>(
    module: &Module,
    f: &'m Function,
    wide: Option<&WideFn<'_>>,
    options: &CompileOptions,
    width: Option<u32>,
) -> Result<KernelBuild<'m>, CompileError> {
    let clock = Instant::now();
    let vectorized = vectorize_kernel(f, wide, options, width);
    build_vectorized(module, f, vectorized, clock)
}

/// [`build_kernel`] from the vectorizer's result (its W-wide kernel or why there is none, and
/// the listing's note), which took the time since `clock`.
fn build_vectorized<'m>(
    module: &Module,
    f: &'m Function,
    (wide, note): (Option<WideKernel>, String),
    mut clock: Instant,
) -> Result<KernelBuild<'m>, CompileError> {
    // This kernel's stages, for the build-time report ([`ferrocl_ir::timing`]).
    let mut own = StageTimes::default();
    own.lap("vectorize", &mut clock);
    if let Some(w) = &wide {
        verify(module, &w.func, "the vectorizer")?;
    }
    let vectorized = wide.is_some();
    clock = Instant::now();
    let mut wg = workgroup::transform_unclean(f, wide.as_ref())?;
    own.lap("work-group", &mut clock);
    verify(module, &wg.func, "the work-group transform")?;
    clock = Instant::now();
    workgroup::clean_up(&mut wg);
    own.lap("wg passes", &mut clock);
    verify(module, &wg.func, "the IR passes")?;
    Ok(KernelBuild {
        func: f,
        note,
        wg,
        times: own,
        vectorized,
        wide_code: Err(String::new()),
    })
}

/// Gives kernel `k`'s work-group function to the wide-vector tier (`crate::wide`), which
/// compiles it or says why not.
fn attach_wide(k: &mut KernelBuild<'_>, locals: &crate::wide::LocalOffsets) {
    let mut clock = Instant::now();
    let (args, _) = abi::arg_layout(k.func);
    k.wide_code = crate::wide::compile(&k.wg.func, k.func, &args, locals);
    k.times.lap("wide tier", &mut clock);
}

/// One kernel's code, before the JIT links it.
struct KernelCode {
    id: FuncId,
    /// Bytes of machine code.
    size: usize,
    /// Where each argument goes in the argument block, and the block's size.
    args: Vec<ArgSlot>,
    args_size: usize,
    /// Bytes of the frames of the functions it calls out of line.
    call_area: usize,
    /// See [`crate::CompiledKernel::stream_bytes`].
    stream_bytes: u32,
}

/// The W-wide version of kernel `f` the compile runs (`wide`'s, or the vectorizer's at
/// [`crate::vector_width`]), with a note: its width, or why there is none.
fn vectorize_kernel(
    f: &Function,
    wide: Option<&WideFn<'_>>,
    options: &CompileOptions,
    width: Option<u32>,
) -> (Option<WideKernel>, String) {
    let got = if options.opt_disable {
        Err("not vectorized: -cl-opt-disable".to_string())
    } else if options.no_vectorize {
        Err("not vectorized: -cl-ferrocl-no-vectorize".to_string())
    } else if let Some(wide) = wide {
        wide(f).ok_or_else(|| "not vectorized".to_string())
    } else if !vectorize::enabled() {
        Err("not vectorized: FERROCL_VECTORIZE=0".to_string())
    } else {
        // Without a width, for Cranelift's code: the tier's width is asked for explicitly.
        crate::vectorized_wide_or_refusal(f, true, width)
            .map(|w| workgroup::WideKernel {
                for_cranelift: width.is_none(),
                ..w
            })
            .map_err(|r| r.to_string())
    };
    match got {
        Ok(w) if !workgroup::usable_wide(&w.func) => (
            None,
            "not vectorized: private arrays, collectives or sub-group queries".into(),
        ),
        Ok(w) => {
            let mut note = format!(
                "{} work-items a chunk (estimated cost {:.2} of one at a time)",
                w.width, w.estimate
            );
            if w.runs > 0 {
                let loops = if w.runs == 1 { "loop" } else { "loops" };
                note += &format!(
                    "; {} {loops} unrolled to load each lane's run of elements several at a time",
                    w.runs
                );
            }
            (Some(w), note)
        }
        Err(note) => (None, note),
    }
}

/// In debug builds, runs the IR verifier on `f`, a function `stage` made.
fn verify(module: &Module, f: &Function, stage: &str) -> Result<(), CompileError> {
    if !cfg!(debug_assertions) {
        return Ok(());
    }
    ferrocl_ir::verify_function(module, f).map_err(|errors| {
        CompileError(format!(
            "kernel {}: {stage} made invalid IR: {}",
            f.name, errors[0]
        ))
    })
}

/// Code generation for one module: the target, the JIT module the code goes into, and what
/// every function's translation refers to.
struct Generator {
    /// The target with the linear-time register allocator, for large functions.
    large_isa: OwnedTargetIsa,
    jit: JITModule,
    helpers: codegen::Helpers,
    libcalls: HashMap<String, codegen::LibCall>,
    calls: codegen::Callees,
    /// Where each global lives.
    places: SecondaryMap<ferrocl_ir::Global, Option<GlobalPlace>>,
    /// Bytes of the program's `__local` variables.
    static_local: usize,
    fbc: FunctionBuilderContext,
    ctx: cranelift_codegen::Context,
    /// Whether `codegen::motion` runs (not with `-cl-opt-disable`).
    optimize: bool,
    times: StageTimes,
    /// Each function's code as Cranelift produced it, in the order defined, for
    /// [`CpuProgram::serialize`]; `None` once a function holds a relocation that is not kept.
    functions: Option<Vec<FunctionCode>>,
}

impl Generator {
    fn new(module: &Module, options: &CompileOptions) -> Result<Generator, CompileError> {
        let mut flags = settings::builder();
        let set = |f: &mut settings::Builder, k: &str, v: &str| {
            f.set(k, v)
                .map_err(|e| CompileError(format!("code generator setting {k}: {e}")))
        };
        // Cranelift's e-graph pass is left out: `codegen::motion` does the part of it that
        // translated code needs, keeping the translation's order (see that module).
        set(&mut flags, "opt_level", "none")?;
        let verifier = if cfg!(debug_assertions) {
            "true"
        } else {
            "false"
        };
        set(&mut flags, "enable_verifier", verifier)?;
        let native = || {
            cranelift_native::builder().map_err(|e| {
                CompileError(format!(
                    "this machine is not supported by the code generator: {e}"
                ))
            })
        };
        let isa = native()?
            .finish(settings::Flags::new(flags.clone()))
            .map_err(|e| CompileError(format!("code generator: {e}")))?;
        set(&mut flags, "regalloc_algorithm", "single_pass")?;
        let large_isa = native()?
            .finish(settings::Flags::new(flags))
            .map_err(|e| CompileError(format!("code generator: {e}")))?;
        let mut builder = JITBuilder::with_isa(isa, default_libcall_names());
        builder.symbol(PRINTF, printf::printf as *const u8);
        for (name, addr) in HALF_HELPERS {
            builder.symbol(name, addr());
        }
        let mut jit = JITModule::new(builder);
        let helpers = declare_helpers(&mut jit)?;
        let libcalls = resolve_services(module, &mut jit)?;
        let calls = codegen::Callees::plan(module, &mut jit)?;
        let Globals {
            places,
            static_local,
        } = place_globals(module, &mut jit)?;
        let ctx = jit.make_context();
        Ok(Generator {
            large_isa,
            jit,
            helpers,
            libcalls,
            calls,
            places,
            static_local,
            fbc: FunctionBuilderContext::new(),
            ctx,
            optimize: !options.opt_disable,
            times: StageTimes::default(),
            functions: Some(Vec::new()),
        })
    }

    /// Translates the functions the inliner kept as calls, callees first.
    fn out_of_line_functions(
        &mut self,
        module: &Module,
        listing: &mut Option<Listing>,
    ) -> Result<(), CompileError> {
        for &f in &self.calls.order {
            let callee = self.calls.map[f].as_ref().expect("planned");
            let func = &module.funcs[f];
            let decl = self.jit.declarations().get_function_decl(callee.id);
            self.ctx.func.signature = decl.signature.clone();
            let mut clock = Instant::now();
            codegen::translate_function(
                module,
                func,
                callee,
                &self.places,
                &mut self.ctx.func,
                &mut self.fbc,
                codegen::Link {
                    jit: &mut self.jit,
                    libcalls: &self.libcalls,
                    helpers: &self.helpers,
                    calls: &self.calls,
                },
            )?;
            let mut own = StageTimes::default();
            own.lap("translate", &mut clock);
            motion(self.optimize, &mut self.ctx.func, &mut own, &mut clock);
            let clif = report_size(&self.ctx.func);
            let heading = format!("function {}", func.name);
            let bytes = define(
                &mut self.jit,
                &*self.large_isa,
                &mut self.ctx,
                callee.id,
                &heading,
                listing,
                &mut self.functions,
            )?;
            own.lap("cranelift", &mut clock);
            report_code(&heading, &own, timing::function_size(func), clif, bytes);
            self.times.merge(&own);
        }
        Ok(())
    }

    /// Translates a kernel's work-group function and compiles it.
    fn kernel(
        &mut self,
        module: &Module,
        k: &KernelBuild<'_>,
        listing: &mut Option<Listing>,
    ) -> Result<KernelCode, CompileError> {
        self.ctx.func.signature.params.extend([
            AbiParam::new(clt::I64),
            AbiParam::new(clt::I64),
            AbiParam::new(clt::I64),
        ]);
        let (args, args_size) = abi::arg_layout(k.func);
        let call_area = self.calls.call_area(&k.wg.func);
        if let Ok(code) = &k.wide_code {
            self.ctx.func.signature.params.clear();
            let id = self.declare_kernel(&k.func.name)?;
            return self
                .define_wide(k, code, id, listing)
                .map(|size| KernelCode {
                    id,
                    size,
                    args,
                    args_size,
                    call_area: call_area as usize,
                    stream_bytes: code.stream_bytes,
                });
        }
        let mut clock = Instant::now();
        codegen::translate_kernel(
            module,
            &k.wg,
            &args,
            call_area,
            &self.places,
            &mut self.ctx.func,
            &mut self.fbc,
            codegen::Link {
                jit: &mut self.jit,
                libcalls: &self.libcalls,
                helpers: &self.helpers,
                calls: &self.calls,
            },
        )?;
        let name = &k.func.name;
        let id = self.declare_kernel(name)?;
        let mut own = k.times.clone();
        self.times
            .add("translate", own.lap("translate", &mut clock));
        if let Some(spent) = motion(self.optimize, &mut self.ctx.func, &mut own, &mut clock) {
            self.times.add("motion", spent);
        }
        let clif = report_size(&self.ctx.func);
        let heading = format!("kernel {name} ({})", k.note);
        let size = define(
            &mut self.jit,
            &*self.large_isa,
            &mut self.ctx,
            id,
            &heading,
            listing,
            &mut self.functions,
        )?;
        self.times
            .add("cranelift", own.lap("cranelift", &mut clock));
        let wg_size = timing::function_size(&k.wg.func);
        report_code(&format!("kernel {name}"), &own, wg_size, clif, size);
        Ok(KernelCode {
            id,
            size,
            args,
            args_size,
            call_area: call_area as usize,
            stream_bytes: 0,
        })
    }

    /// Places the wide-vector tier's code of kernel `k` as function `id`, recording it for the
    /// listing and the program cache; returns its size in bytes.
    fn define_wide(
        &mut self,
        k: &KernelBuild<'_>,
        code: &crate::wide::WideCode,
        id: FuncId,
        listing: &mut Option<Listing>,
    ) -> Result<usize, CompileError> {
        let name = &k.func.name;
        let failed = |e: String| CompileError(format!("kernel {name}: wide tier: {e}"));
        // The addresses of program-scope data the code holds.
        let relocs = code
            .relocs
            .iter()
            .map(|&(offset, g)| match self.places[g] {
                Some(GlobalPlace::Data(data)) => Ok(ModuleReloc {
                    offset,
                    kind: cranelift_codegen::binemit::Reloc::Abs8,
                    name: cranelift_module::ModuleRelocTarget::from(data),
                    addend: 0,
                }),
                _ => Err(failed(format!("global {g} is not program-scope data"))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        self.jit
            .define_function_bytes(id, WIDE_ALIGN, &code.bytes, &relocs)
            .map_err(|e| failed(format!("{e:?}")))?;
        if let Some(listing) = listing {
            let heading = format!("kernel {name} ({}; wide tier)", k.note);
            listing.push("clif", &format!("; {heading}: no Cranelift IR\n\n"));
            listing.push("asm", &format!("; {heading}\n{}\n", code.asm));
        }
        if let Some(list) = self.functions.as_mut() {
            match self.jit.declarations().get_function_decl(id).name.clone() {
                Some(fname) => {
                    let kept: Option<Vec<Relocation>> = relocs
                        .iter()
                        .map(|r| Relocation::from_module(r, &self.jit))
                        .collect();
                    match kept {
                        Some(relocs) => list.push(FunctionCode {
                            name: fname,
                            align: WIDE_ALIGN,
                            bytes: code.bytes.clone(),
                            relocs,
                        }),
                        None => self.functions = None,
                    }
                }
                None => self.functions = None,
            }
        }
        let bytes = code.bytes.len();
        report_code(
            &format!("kernel {name}"),
            &k.times,
            timing::function_size(&k.wg.func),
            0,
            bytes,
        );
        Ok(bytes)
    }

    /// Declares the work-group function of the kernel called `name`.
    fn declare_kernel(&mut self, name: &str) -> Result<FuncId, CompileError> {
        let mut sig = self.jit.make_signature();
        sig.params.extend([
            AbiParam::new(clt::I64),
            AbiParam::new(clt::I64),
            AbiParam::new(clt::I64),
        ]);
        self.jit
            .declare_function(&format!("__ferrocl_wg_{name}"), Linkage::Local, &sig)
            .map_err(|e| CompileError(format!("kernel {name}: {e}")))
    }

    /// Links the code and makes the program's kernels.
    fn link(
        mut self,
        module: &Module,
        kernels: &[KernelShape<'_>],
        code: Vec<KernelCode>,
        listing: Option<Listing>,
    ) -> Result<CpuProgram, CompileError> {
        let mut clock = Instant::now();
        self.jit
            .finalize_definitions()
            .map_err(|e| CompileError(format!("code generation failed: {e}")))?;
        self.times.lap("link", &mut clock);
        timing::report("cpu compile", self.times.total(), &self.times.describe());
        let entries: Vec<*const u8> = code
            .iter()
            .map(|c| self.jit.get_finalized_function(c.id))
            .collect();
        if let Some(dir) = code_dump::wanted() {
            let dump: Vec<(*const u8, usize, &str)> = code
                .iter()
                .zip(&entries)
                .zip(kernels)
                .map(|((c, &at), k)| (at, c.size, k.func.name.as_str()))
                .collect();
            // SAFETY: each entry is the start of its kernel's finalized code, `size` bytes.
            unsafe { code_dump::record(&dir, &dump) };
        }
        let uses_printf = self.libcalls.contains_key(PRINTF);
        let static_local_size = self.static_local;
        let compiled = self.functions.map(|functions| Compiled {
            functions,
            kernels: kernels
                .iter()
                .zip(&code)
                .map(|(k, c)| KernelLayout {
                    name: k.func.name.clone(),
                    frame_size: k.frame_size as u64,
                    call_area: c.call_area as u64,
                    regions: k.regions as u64,
                    stream_bytes: c.stream_bytes,
                })
                .collect(),
        });
        let shared = Arc::new(Code {
            jit: Some(self.jit),
        });
        let kernels = kernels
            .iter()
            .zip(code)
            .zip(entries)
            .map(|((k, c), at)| {
                // SAFETY: the function was generated with the GroupFn signature (three i64
                // parameters in the platform's C calling convention, no result).
                let entry = unsafe { std::mem::transmute::<*const u8, GroupFn>(at) };
                Arc::new(CompiledKernel {
                    name: k.func.name.clone(),
                    info: k.func.kernel.clone(),
                    args: c.args,
                    args_size: c.args_size,
                    static_local_size,
                    frame_size: k.frame_size,
                    call_area: c.call_area,
                    preferred_group_size: preferred_group_size(k.regions, k.frame_size),
                    group_blind: !workgroup::sees_groups(module, k.func),
                    tiled_groups: crate::transposed::tiles_for(k.func),
                    stream_bytes: c.stream_bytes,
                    entry,
                    uses_printf,
                    _code: shared.clone(),
                })
            })
            .collect();
        Ok(CpuProgram {
            kernels,
            listing,
            times: self.times,
            compiled,
        })
    }
}

/// The Cranelift instructions of `func`, when the build-time report is on (else 0, uncounted).
fn report_size(func: &cranelift_codegen::ir::Function) -> usize {
    if !timing::enabled() {
        return 0;
    }
    let layout = &func.layout;
    layout.blocks().map(|b| layout.block_insts(b).count()).sum()
}

/// Reports the compile of one function (`heading`): its stages' times, the IR instructions
/// translated, the Cranelift instructions and the bytes of code.
fn report_code(heading: &str, times: &StageTimes, ir: usize, clif: usize, bytes: usize) {
    if timing::enabled() {
        timing::report(
            &format!("cpu {heading}"),
            times.total(),
            &format!(
                "{} ms; {ir} IR, {clif} Cranelift instructions, {bytes} bytes",
                times.describe()
            ),
        );
    }
}

/// Where the globals of a module live.
struct Globals {
    places: SecondaryMap<ferrocl_ir::Global, Option<GlobalPlace>>,
    /// Bytes of the `__local` variables, at offsets in the work-group's local memory.
    static_local: usize,
}

/// The offset of each of `module`'s `__local` variables in the work-group's local memory,
/// each aligned as it asks, and the bytes they take.
fn local_offsets(module: &Module) -> (crate::wide::LocalOffsets, u64) {
    let mut offsets = SecondaryMap::new();
    let mut end = 0u64;
    for (g, data) in module.globals.iter() {
        if data.space == AddrSpace::Local {
            let align = u64::from(data.align.max(1));
            end = end.div_ceil(align) * align;
            offsets[g] = Some(end as u32);
            end += u64::from(data.size);
        }
    }
    (offsets, end)
}

/// The alignment of program-scope data: enough for any OpenCL type (`long16`, `double16`).
const DATA_ALIGN: u64 = 128;

/// Where each global of `module` lives: program-scope data in data objects of `jit` (named
/// `__ferrocl_global_N`, for global N), each in a block of its own rounded up to
/// [`DATA_ALIGN`] bytes, `__local` variables at offsets in the work-group's local memory.
fn place_globals(module: &Module, jit: &mut JITModule) -> Result<Globals, CompileError> {
    let mut places = SecondaryMap::new();
    let (locals, static_local) = local_offsets(module);
    // Every global's place first, so that an initializer can name any of them.
    for (g, data) in module.globals.iter() {
        match locals[g] {
            Some(off) => places[g] = Some(GlobalPlace::Local(u64::from(off))),
            None => {
                let name = format!("__ferrocl_global_{}", g.as_u32());
                let id = jit
                    .declare_data(&name, Linkage::Local, true, false)
                    .map_err(|e| CompileError(format!("global {}: {e}", data.name)))?;
                places[g] = Some(GlobalPlace::Data(id));
            }
        }
    }
    for (g, data) in module.globals.iter() {
        let Some(GlobalPlace::Data(id)) = places[g] else {
            continue;
        };
        let failed = |e| CompileError(format!("global {}: {e}", data.name));
        let size = u64::from(data.size).div_ceil(DATA_ALIGN).max(1) * DATA_ALIGN;
        let mut bytes = vec![0u8; size as usize];
        if let Some(init) = &data.init {
            let n = init.len().min(data.size as usize);
            bytes[..n].copy_from_slice(&init[..n]);
        }
        let mut description = DataDescription::new();
        description.set_align(DATA_ALIGN);
        description.define(bytes.into_boxed_slice());
        // The addresses the initializer holds (a program-scope pointer initialized with
        // `&x`): relocations of the data object, written when the program's data is placed,
        // once per built program, so a kernel that changes such a pointer leaves it changed.
        for r in &data.relocs {
            let Some(GlobalPlace::Data(target)) = places[r.target] else {
                continue;
            };
            if u64::from(r.offset) + 8 > u64::from(data.size) {
                continue;
            }
            let gv = jit.declare_data_in_data(target, &mut description);
            description.write_data_addr(r.offset, gv, r.addend);
        }
        jit.define_data(id, &description).map_err(failed)?;
    }
    Ok(Globals {
        places,
        static_local: static_local as usize,
    })
}

/// Functions of more Cranelift instructions than this get the single-pass register allocator,
/// and so do functions of more than [`LARGE_HOT_FUNCTION`] instructions with more than
/// [`HOT`] values live at one point ([`pressure`]) of which more than [`HOT_BLOCK`] are used
/// or defined in one block ([`block_pressure`]). The default (backtracking) allocator is
/// superlinear on such functions: John the Ripper's bitlocker kernels (25,000 and 42,000
/// instructions, 450-500 values live) spent 23 s in it; hashcat's bitsliced DES kernel
/// m01500_mxx (6,119 instructions, 650 live, 130 of them in one block) 47 s, nearly all of
/// its build. Many values live across a function but few in each block are cheap for it and
/// its code much better: CLBlast's XgemmDirect for doubles (16,700 instructions, 815 live, 34
/// in a block) builds in a fraction of a second, and its GEMM ran 2.5x slower with the
/// single-pass allocator. Below these bounds allocation takes milliseconds (the largest
/// bench-suite kernel: 3,430 instructions; hashcat's md5_update_64: 7,387 instructions, 76
/// live; m22000's aux kernels: 2,800 instructions, 0.6 s for the whole program).
const LARGE_FUNCTION: usize = 20_000;
/// See [`LARGE_FUNCTION`].
const LARGE_HOT_FUNCTION: usize = 4_000;
/// See [`LARGE_FUNCTION`].
const HOT: usize = 256;
/// See [`LARGE_FUNCTION`].
const HOT_BLOCK: usize = 96;

/// Runs `codegen::motion` on translated function `func` where `optimize` asks for it (not
/// under `-cl-opt-disable`), timed in `times` as a stage of its own; returns that time.
fn motion(
    optimize: bool,
    func: &mut cranelift_codegen::ir::Function,
    times: &mut StageTimes,
    clock: &mut Instant,
) -> Option<Duration> {
    optimize.then(|| {
        codegen::motion::optimize(func);
        times.lap("motion", clock)
    })
}

/// Compiles the function in `ctx` as `id` of `jit`, recording its Cranelift IR as optimized
/// and its machine code under `heading` when there is a listing, and its code with its
/// relocations in `functions` (which becomes `None` if a relocation cannot be kept), and
/// clears `ctx`; returns the code's size in bytes. A function over the bounds of
/// [`LARGE_FUNCTION`] is compiled by `large_isa` (the same target, a linear-time register
/// allocator).
fn define(
    jit: &mut JITModule,
    large_isa: &dyn TargetIsa,
    ctx: &mut cranelift_codegen::Context,
    id: FuncId,
    heading: &str,
    listing: &mut Option<Listing>,
    functions: &mut Option<Vec<FunctionCode>>,
) -> Result<usize, CompileError> {
    ctx.set_disasm(listing.is_some());
    let failed = |e: String| CompileError(format!("{heading}: code generation failed: {e}"));
    let layout = &ctx.func.layout;
    let size: usize = layout.blocks().map(|b| layout.block_insts(b).count()).sum();
    // The linear count first: the liveness analysis takes a while on large functions.
    let hot = || block_pressure(&ctx.func) > HOT_BLOCK && pressure(&ctx.func) > HOT;
    if size > LARGE_FUNCTION || (size > LARGE_HOT_FUNCTION && hot()) {
        let align = ctx
            .compile(large_isa, &mut Default::default())
            .map_err(|e| failed(format!("{:?}", e.inner)))?
            .buffer
            .alignment as u64;
        let code = ctx.compiled_code().expect("compiled just now");
        let align = align
            .max(u64::from(large_isa.function_alignment().minimum))
            .max(large_isa.symbol_alignment());
        let relocs: Vec<ModuleReloc> = code
            .buffer
            .relocs()
            .iter()
            .map(|r| ModuleReloc::from_mach_reloc(r, &ctx.func, id))
            .collect();
        jit.define_function_bytes(id, align, code.code_buffer(), &relocs)
            .map_err(|e| failed(format!("{e:?}")))?;
    } else {
        jit.define_function(id, ctx)
            .map_err(|e| failed(format!("{e:?}")))?;
    }
    if let Some(listing) = listing {
        listing.push("clif", &format!("; {heading}\n{}\n", ctx.func.display()));
        let asm = ctx
            .compiled_code()
            .and_then(|c| c.vcode.as_deref())
            .unwrap_or("");
        listing.push("asm", &format!("; {heading}\n{asm}\n"));
    }
    if let (Some(list), Some(code)) = (functions.as_mut(), ctx.compiled_code()) {
        let relocs: Option<Vec<Relocation>> = code
            .buffer
            .relocs()
            .iter()
            .map(|r| Relocation::from_module(&ModuleReloc::from_mach_reloc(r, &ctx.func, id), jit))
            .collect();
        let name = jit.declarations().get_function_decl(id).name.clone();
        match (relocs, name) {
            (Some(relocs), Some(name)) => list.push(FunctionCode {
                name,
                align: u64::from(code.buffer.alignment),
                bytes: code.code_buffer().to_vec(),
                relocs,
            }),
            _ => *functions = None,
        }
    }
    let size = ctx.compiled_code().map_or(0, |c| c.code_buffer().len());
    jit.clear_context(ctx);
    Ok(size)
}

/// The most values live at once at any point of `func`: a backward liveness analysis over
/// its blocks (values live out of a block are those live into a successor, less the
/// successor's parameters), then one pass over each block from its end.
fn pressure(func: &cranelift_codegen::ir::Function) -> usize {
    use cranelift_codegen::ir::{Block, Value};
    use std::collections::{HashMap, HashSet};
    let cfg = cranelift_codegen::flowgraph::ControlFlowGraph::with_function(func);
    let blocks: Vec<Block> = func.layout.blocks().collect();
    let mut live_in: HashMap<Block, HashSet<Value>> = HashMap::new();
    let live_out = |b: Block, live_in: &HashMap<Block, HashSet<Value>>| {
        let mut out = HashSet::new();
        for s in cfg.succ_iter(b) {
            if let Some(l) = live_in.get(&s) {
                out.extend(l.iter().copied());
            }
        }
        out
    };
    // Walks `b` backwards from `live` (what is live at its end); the most values live at once.
    let walk = |b: Block, live: &mut HashSet<Value>| {
        let mut most = live.len();
        let insts: Vec<_> = func.layout.block_insts(b).collect();
        for &inst in insts.iter().rev() {
            for r in func.dfg.inst_results(inst) {
                live.remove(r);
            }
            live.extend(func.dfg.inst_values(inst));
            most = most.max(live.len());
        }
        for p in func.dfg.block_params(b) {
            live.remove(p);
        }
        most
    };
    loop {
        let mut changed = false;
        for &b in blocks.iter().rev() {
            let mut live = live_out(b, &live_in);
            walk(b, &mut live);
            if live_in.get(&b) != Some(&live) {
                live_in.insert(b, live);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    blocks
        .iter()
        .map(|&b| walk(b, &mut live_out(b, &live_in)))
        .max()
        .unwrap_or(0)
}

/// The most values live at once inside one block of `func`, counting only the values the
/// block defines or uses (what is dense within blocks, in one linear pass).
fn block_pressure(func: &cranelift_codegen::ir::Function) -> usize {
    let mut live = std::collections::HashSet::new();
    let mut most = 0;
    for block in func.layout.blocks() {
        live.clear();
        for inst in func
            .layout
            .block_insts(block)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
        {
            for r in func.dfg.inst_results(inst) {
                live.remove(r);
            }
            for &a in func.dfg.inst_values(inst).collect::<Vec<_>>().iter() {
                live.insert(a);
            }
            most = most.max(live.len());
        }
    }
    most
}

/// A helper function's symbol name, and how to get its address.
type Symbol = (&'static str, fn() -> *const u8);

/// The `half` conversion helpers that code generation calls: the narrowing conversions in a
/// directed rounding mode, and from double (`codegen/convert.rs` makes widening and rounding a
/// float to nearest even inline).
const HALF_HELPERS: [Symbol; 2] = [
    ("__ferrocl_float_to_half", || {
        half::float_to_half as *const u8
    }),
    ("__ferrocl_double_to_half", || {
        half::double_to_half as *const u8
    }),
];

/// Declares the runtime's helpers in a JIT module.
fn declare_helpers(jit: &mut JITModule) -> Result<codegen::Helpers, CompileError> {
    let h16 = || AbiParam::new(clt::I16).uext();
    let sigs: [(Vec<AbiParam>, AbiParam); 2] = [
        (
            vec![AbiParam::new(clt::F32), AbiParam::new(clt::I32)],
            h16(),
        ),
        (
            vec![AbiParam::new(clt::F64), AbiParam::new(clt::I32)],
            h16(),
        ),
    ];
    let mut ids = Vec::with_capacity(2);
    for ((name, _), (params, ret)) in HALF_HELPERS.iter().zip(sigs) {
        let mut sig = jit.make_signature();
        sig.params = params;
        sig.returns.push(ret);
        let id = jit
            .declare_function(name, Linkage::Import, &sig)
            .map_err(|e| CompileError(format!("helper {name}: {e}")))?;
        ids.push(id);
    }
    Ok(codegen::Helpers {
        half: [ids[0], ids[1]],
    })
}

/// The one device service a program calls by name: `printf` (6.15.14), which lowering
/// declares as `@printf(ptr.constant format, ptr.private arguments) -> i32`. Every other
/// builtin that is not an IR operation comes from the shared builtin library, linked in
/// before the passes.
const PRINTF: &str = "printf";

/// Resolves the declared functions of `module` that the CPU device provides itself (see
/// [`PRINTF`]). A call to any other declaration is an error when the call is translated.
fn resolve_services(
    module: &Module,
    jit: &mut JITModule,
) -> Result<HashMap<String, codegen::LibCall>, CompileError> {
    let mut out = HashMap::new();
    for (_, f) in module.funcs.iter().filter(|(_, f)| f.is_declaration()) {
        if f.name != PRINTF || f.sig.params.len() != 2 {
            continue;
        }
        let mut sig = jit.make_signature();
        sig.params = vec![AbiParam::new(clt::I64), AbiParam::new(clt::I64)];
        sig.returns.push(AbiParam::new(clt::I32));
        let id = jit
            .declare_function(PRINTF, Linkage::Import, &sig)
            .map_err(|e| CompileError(format!("library function {PRINTF}: {e}")))?;
        out.insert(f.name.clone(), codegen::LibCall { id });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kernel reading a `__constant` table: `out[i] = table[i % 4]`.
    const TABLE: &str = r#"
global @table: constant, size 16, align 4, init "01000000140000002c010000a00f0000"
kernel @k(ptr.global) {
    arg "out": "int*" global none []
block0(v0: ptr.global):
    v1: i64 = global_id 0
    v2: i64 = iconst 3
    v3: i64 = band v1, v2
    v4: i64 = iconst 4
    v5: i64 = imul v3, v4
    v6: ptr.constant = globaladdr @table
    v7: ptr.constant = ptradd v6, v5
    v8: i32 = load.constant v7, align 4
    v9: i64 = imul v1, v4
    v10: ptr.global = ptradd v0, v9
    store.global v8, v10, align 4
    return
}
"#;

    fn module(text: &str) -> Module {
        let m = ferrocl_ir::parse_module(text).unwrap_or_else(|e| panic!("{e:?}"));
        ferrocl_ir::verify_module(&m).unwrap_or_else(|e| panic!("{e:?}"));
        m
    }

    /// Runs kernel `k` of `program` over 40 work-items; what it wrote.
    fn run(program: &CpuProgram) -> Vec<i32> {
        let k = program.kernel("k").expect("the kernel");
        let mut out = vec![0i32; 40];
        let mut args = vec![0u8; k.args_size];
        let at = k.args[0].offset;
        args[at..at + 8].copy_from_slice(&(out.as_mut_ptr() as u64).to_ne_bytes());
        let nd = ferrocl_device::NdRange {
            work_dim: 1,
            global_offset: [0; 3],
            global_size: [40, 1, 1],
            local_size: [8, 1, 1],
        };
        // SAFETY: the argument block holds the address of `out`, 40 ints, all the kernel
        // writes.
        unsafe { k.launch(&args, 0, &nd) }.expect("the launch");
        out
    }

    #[test]
    fn loaded_code_runs_as_compiled_with_its_own_data() {
        let m = module(TABLE);
        let options = CompileOptions::default();
        let compiled = compile(&m, None, &options, false).expect("compiles");
        let want: Vec<i32> = (0..40).map(|i| [1, 20, 300, 4000][i % 4]).collect();
        assert_eq!(run(&compiled), want);
        let bytes = compiled.serialize().expect("kept");
        let loaded = load(&m, &options, &bytes).expect("loads");
        // The loaded program's table is its own copy: dropping the first program frees
        // that one's.
        drop(compiled);
        assert_eq!(run(&loaded), want);
        assert_eq!(loaded.serialize(), Some(bytes));
    }

    /// Compiles `text` with the wide-vector tier, checks that the tier took its kernel and
    /// that it writes `want`, then that the program cache's bytes load and run alike.
    fn tier_code_is_kept_and_loaded_again(text: &str, want: &[i32]) {
        if !crate::wide::host_supports() {
            return;
        }
        let m = module(text);
        let options = CompileOptions {
            record: true,
            ..CompileOptions::default()
        };
        let compiled = compile(&m, None, &options, true).expect("compiles");
        let wg = compiled.listing().and_then(|l| l.stage("wg")).unwrap_or("");
        assert!(wg.lines().any(|l| l.ends_with("; wide tier")), "{wg}");
        assert_eq!(run(&compiled), want);
        let bytes = compiled.serialize().expect("kept");
        let loaded = load(&m, &options, &bytes).expect("loads");
        drop(compiled);
        assert_eq!(run(&loaded), want);
    }

    #[test]
    fn the_wide_tiers_code_is_kept_and_loaded_again() {
        // out[i] = 3 * i, vectorized at 16 lanes and taken by the tier.
        let want: Vec<i32> = (0..40).map(|i| 3 * i).collect();
        tier_code_is_kept_and_loaded_again(
            r#"
kernel @k(ptr.global) {
    arg "out": "int*" global none []
block0(v0: ptr.global):
    v1: i64 = global_id 0
    v2: i32 = trunc v1
    v3: i32 = iconst 3
    v4: i32 = imul v2, v3
    v5: i64 = iconst 4
    v6: i64 = imul v1, v5
    v7: ptr.global = ptradd v0, v6
    store.global v4, v7, align 4
    return
}
"#,
            &want,
        );
    }

    #[test]
    fn the_wide_tiers_data_addresses_are_kept_and_loaded_again() {
        // out[i] = i * table[2]: the tier's code holds the table's address (a relocation).
        let want: Vec<i32> = (0..40).map(|i| 300 * i).collect();
        tier_code_is_kept_and_loaded_again(
            r#"
global @table: constant, size 16, align 4, init "01000000140000002c010000a00f0000"
kernel @k(ptr.global) {
    arg "out": "int*" global none []
block0(v0: ptr.global):
    v1: i64 = global_id 0
    v2: i32 = trunc v1
    v3: ptr.constant = globaladdr @table
    v4: i64 = iconst 8
    v5: ptr.constant = ptradd v3, v4
    v6: i32 = load.constant v5, align 4
    v7: i32 = imul v2, v6
    v8: i64 = iconst 4
    v9: i64 = imul v1, v8
    v10: ptr.global = ptradd v0, v9
    store.global v7, v10, align 4
    return
}
"#,
            &want,
        );
    }

    #[test]
    fn code_that_does_not_fit_the_module_is_refused() {
        let m = module(TABLE);
        let options = CompileOptions::default();
        let program = compile(&m, None, &options, false).expect("compiles");
        let good = program.compiled.clone().expect("kept");
        let refused = |c: &Compiled, what: &str| {
            let got = load(&m, &options, &c.encode());
            assert!(got.is_err(), "{what} was loaded");
        };
        let with_reloc = |change: &dyn Fn(&mut Relocation)| {
            let mut c = good.clone();
            let f = c
                .functions
                .iter_mut()
                .find(|f| !f.relocs.is_empty())
                .expect("a function with a relocation (the table's address)");
            change(&mut f.relocs[0]);
            c
        };
        refused(
            &with_reloc(&|r| r.target = crate::serial::Target::Symbol("elsewhere".into())),
            "a relocation to an unknown symbol",
        );
        refused(
            &with_reloc(&|r| r.offset = u32::MAX - 2),
            "a relocation past the code",
        );
        refused(
            &with_reloc(&|r| r.target = crate::serial::Target::Own(1 << 30)),
            "a relocation to past the function",
        );
        let mut c = good.clone();
        c.functions.clear();
        refused(&c, "a program without its kernel's code");
        let mut c = good.clone();
        c.functions.push(c.functions[0].clone());
        refused(&c, "a function's code twice");
        let mut c = good.clone();
        c.functions[0].name = "__ferrocl_float_to_half".into();
        refused(&c, "code of an imported helper");
        let mut c = good.clone();
        c.functions[0].align = 3;
        refused(&c, "an alignment that is not a power of two");
        let mut c = good.clone();
        c.kernels[0].name = "other".into();
        refused(&c, "another kernel's layout");
        let mut c = good.clone();
        c.kernels.clear();
        refused(&c, "no kernel layout");
        assert!(load(&m, &options, &good.encode()).is_ok());
    }
}
