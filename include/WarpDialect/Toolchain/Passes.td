//===- Passes.td - the NVPTX toolchain around the dialect --*- tablegen -*-===//
//
// The passes that are not about warp ops: kernel ABI and index widths,
// read-only arguments, lowerability and shared-memory checks,
// module-to-binary, print-isa, if-present, async tokens, device-function
// lowering. Each one that works around upstream (MLIR or LLVM) behaviour
// says so in the first paragraph of its description ("Works around ...",
// "Replaces upstream's ..."), naming the behaviour it replaces.
//
//===----------------------------------------------------------------------===//

#ifndef WARPDIALECT_TOOLCHAIN_PASSES_TD
#define WARPDIALECT_TOOLCHAIN_PASSES_TD

include "mlir/Pass/PassBase.td"

def WarpCheckSharedMemoryPass
    : Pass<"warp-check-shared-memory", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Check that each kernel's static shared memory fits a block";
  let description = [{
    Sums, for each kernel `gpu.func` of the `gpu.module`, the bytes of its
    workgroup attributions and of every workgroup-memory `memref.global`
    that the kernel or a function it calls (transitively) reads with
    `memref.get_global`, each rounded up to the 16 bytes that
    `warp-align-gpu-memory` gives it, and reports a located error naming
    the largest parts when the sum exceeds the 48 KiB of static shared
    memory a block can have.

    Why: the expansions size each workgroup buffer for the largest op of
    the kernels that share it (the block ops' buffers: kernels that call a
    common function; warp exchanges and merge sorts: the `gpu.module`) and
    each check that one buffer fits; a kernel that uses several of them,
    or its own attributions besides, can still exceed the limit, which
    ptxas would report only later ("uses too much shared data") or not at
    all on the JIT path.
  }];
}

def WarpAlignGPUMemoryPass
    : Pass<"warp-align-gpu-memory", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Align workgroup attributions and device globals to 16 bytes";
  let description = [{
    Works around LLVM 22's NVPTX back end, which vectorizes accesses to a
    device variable beyond the alignment its PTX declaration states (see Why
    below).

    Gives every workgroup attribution of a `gpu.func` (`llvm.align`, which
    the NVVM lowering honours) and every `memref.global` / `llvm.mlir.global`
    in the `gpu.module` an alignment of at least 16 bytes.

    Why: LLVM 22's NVPTX code generation merges neighbouring scalar accesses
    to such a variable into `ld.shared.v4`/`st.shared.v2`... that need 16 (or
    8) byte alignment, but the PTX still declares the variable with its
    natural alignment (`.shared .align 4 .b8 __wg_k_1[32]`), so the kernel
    faults with "misaligned address" (reproduced with `opt-22 -O3` + `llc-22`
    alone). 16 bytes is the widest vector access, so no access can be
    misaligned; it costs at most 12 bytes of padding per variable.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def WarpCheckLowerablePass : Pass<"warp-check-lowerable", "::mlir::ModuleOp"> {
  let summary = "Reject device code the lowering or the backend cannot take";
  let description = [{
    Works around the NVPTX back end and ptxas, which abort or fail late,
    without a location, on the inputs listed below.

    Checks, with a diagnostic each, what would otherwise leave invalid IR
    behind or abort NVPTX or ptxas further down:

    * a warp op outside device code (a `gpu.module` function or a
      `gpu.launch` body), or directly in a `gpu.module` body;
    * a `gpu.module` that is not a child of the top-level module (the
      pipelines lower only those);
    * a symbol in a `gpu.module` whose name PTX cannot spell (PTX
      identifiers are `[a-zA-Z][a-zA-Z0-9_$]*` or `[_$%][a-zA-Z0-9_$]+`;
      `WARP_SZ` is reserved), e.g. `my.kernel` or `my-kernel`;
    * launch bounds CUDA cannot launch: a `known_block_size` or constant
      `gpu.launch` block size outside 1..1024 (z: 1..64) or with more than
      1024 threads, a grid size outside 1..2^31-1 (y, z: 1..65535);
    * a function of a `gpu.module` with an `i0` argument or result (NVPTX
      aborts: "Empty parameter types are not supported");
    * a device op that writes a memref of constant memory (address space
      4, which kernels only read; NVPTX aborts: "Cannot store to pointer
      that points to constant memory space");
    * a memref atomic where PTX's `atom` cannot reach: private memory
      (5), a cluster's shared memory (7) before sm_90, param (101),
      tensor (6) or an unnamed space (NVPTX aborts: "Cannot select:
      AtomicLoad...");
    * a load or store of a cluster's shared memory before sm_90 (ptxas
      rejects `st.shared::cluster` for the older target), of tensor memory
      (a 32-bit generic access came out), of a memory space NVPTX does not
      name (2, 8, ...: a generic access came out), or a write to param
      memory (the store vanished);
    * async-dialect host code (`async.*` ops or types) when the pipeline
      does not lower it (`allow-async=false`; `warp-lower-to-ptx` passes its
      `async` option, which `warp-cuda-runner` sets for such programs).
    * an NVVM op in device code that the pipeline's `chip` lacks (e.g.
      `nvvm.wgmma.fence.aligned`, which needs sm_90a, for sm_90): NVVM's
      verifier rejects it only once the target is attached, so the attach
      pass would succeed and leave invalid IR.

    The `warp-lower-to-ptx` pipeline runs it first, before outlining.

    ```mlir
    func.func @host(%x: f32) -> f32 {
      %r = warp.reduce <add> %x : f32   // error: runs in host code
      return %r : f32
    }
    ```
  }];
  let options = [
    Option<"allowAsync", "allow-async", "bool", /*default=*/"true",
           "Accept async-dialect host code (the pipeline lowers it)">,
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "The chip the pipeline targets: device NVVM ops must exist on it "
           "(none checked when empty)">,
  ];
}

def WarpPrintISAPass : Pass<"warp-print-isa", "::mlir::ModuleOp"> {
  let summary = "Write the PTX held by gpu.binary ops to a file or stdout";
  let description = [{
    `warp-module-to-binary format=isa` (as upstream's `gpu-module-to-binary`)
    keeps the PTX as an escaped string inside `gpu.binary`; this pass writes
    the text itself: to a file (one module: ptxas takes one `.version` per
    file), to a directory (`output=DIR/`, one `NAME.ptx` per module) or to
    stdout (`-`, a `// gpu.binary @name` header before each). `warp-lower-to-ptx` runs it
    when its `ptx-output` option is set. A binary holding cubin or fatbin
    objects is an error.

    ```mlir
    // warp-opt --warp-lower-to-ptx="format=isa" --warp-print-isa=output=k.ptx
    ```
  }];
  let options = [
    Option<"output", "output", "std::string", /*default=*/"\"-\"",
           "File to write ('-': stdout)">,
  ];
}

def WarpReconcileTargetsPass
    : Pass<"warp-reconcile-targets", "::mlir::ModuleOp"> {
  let summary = "Make way for the pipeline's NVVM target on each gpu.module";
  let description = [{
    Works around upstream's `gpu-nvvm-attach-target`, which appends its
    target to a `gpu.module` that already names one: a module written with
    `[#nvvm.target<chip = "sm_90">]` and compiled with `chip=sm_90` got two
    targets, so two PTX objects, and `ptx-output` wrote both to one file.

    `warp-lower-to-ptx` runs this pass just before attaching its target.
    A module's own NVVM targets for the pipeline's chip are removed (the
    pipeline's target, with the chip's PTX version, optimization level and
    ptxas options, takes their place); an NVVM target for another chip is
    an error at the module, since the expansions would otherwise choose
    their lowering for one chip and the binary would hold code for two.
    Targets of other kinds (not NVVM) are kept.

    ```mlir
    // warp-opt --warp-reconcile-targets=chip=sm_90
    gpu.module @m [#nvvm.target<chip = "sm_90">] {}   // -> gpu.module @m {}
    gpu.module @n [#nvvm.target<chip = "sm_80">] {}   // error
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "The chip the pipeline compiles for">,
  ];
}

def WarpFitKernelParamsPass
    : Pass<"warp-fit-kernel-params", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Raise the PTX version where a kernel's parameters need it";
  let description = [{
    Works around upstream's serialization, which writes the NVVM target's
    PTX version whatever a kernel's parameters need, so that ptxas rejects
    a kernel with many parameters ("uses too much parameter space").

    On a `gpu.module` lowered to LLVM: a kernel whose parameters take more
    than the 4,352 bytes PTX allows before 8.1 gets the module's NVVM
    targets PTX 8.1 (only where the chip's own version is older, so every
    other module keeps the version older drivers load); a kernel over the
    32,764 bytes of PTX 8.1 is an error at the kernel. `warp-lower-to-ptx`
    runs it right before serialization.
  }];
}

def WarpModuleToBinaryPass
    : Pass<"warp-module-to-binary", "::mlir::ModuleOp"> {
  let summary = "Serialize every gpu.module to a gpu.binary, the modules in "
                "parallel";
  let description = [{
    Replaces upstream's gpu-module-to-binary, which serializes the
    gpu.modules one after another.

    What upstream's `gpu-module-to-binary` does for the targets of each
    `gpu.module` (translation to LLVM IR, LLVM's optimization and NVPTX
    code generation, and for `bin`/`fatbin` ptxas), with the modules
    serialized in parallel on the context's threads: upstream's pass takes
    them one after another, so a program of many `gpu.module`s compiled in
    one process used one core for its largest step. Each module is
    translated and compiled in an LLVM context of its own while the IR is
    only read; the `gpu.binary` ops then replace the modules in order, on
    one thread. Diagnostics come in module order, as without threads, and
    `--mlir-disable-threading` serializes one module at a time.
    `warp-lower-to-ptx` runs it in place of `gpu-module-to-binary`. Its one
    option is the format: the targets' own options (chip, features, `O`,
    ptxas options) apply; for upstream's `toolkit`, `l` (bitcode to link)
    and `section` options use `gpu-module-to-binary`.

    An LLVM fatal error in a module's code generation (NVPTX's "Cannot
    select") is an error at that `gpu.module`. Without threads (the C API's
    contexts) each module is serialized in a recovery scope of its own, so
    every failing module reports and the process lives on; on the
    context's threads the error is printed and ends the process
    (docs/Robustness.md).

    Unlike upstream's, it translates each module with the data layout of
    the target machine that generates its code (as `llvm.data_layout`,
    unless the module states one): the translation aligns each load and
    store that states no alignment as the module's layout aligns its type,
    and without one that is LLVM's default, which aligns i64 to 4 bytes, so
    NVPTX split every i64 access into two 32-bit ones.

    ```mlir
    // warp-opt --warp-module-to-binary=format=isa
    // gpu.module @a [#nvvm.target<chip = "sm_90">] { ... }
    //   -> gpu.binary @a [#gpu.object<#nvvm.target<chip = "sm_90">, "...PTX...">]
    ```
  }];
  let options = [
    Option<"format", "format", "::mlir::gpu::CompilationTarget",
           /*default=*/"::mlir::gpu::CompilationTarget::Fatbin",
           "What each object holds",
           [{::mlir::warp::compilationTargetValues()}]>,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def WarpLowerFloatMinMaxPass : Pass<"warp-lower-float-min-max"> {
  let summary = "Rewrite arith.maxnumf/minnumf into LLVM's maxnum/minnum "
                "intrinsics, not libdevice calls (device code)";
  let description = [{
    `convert-gpu-to-nvvm` lowers `arith.maxnumf` and `arith.minnumf` to
    calls of libdevice's `__nv_fmax(f)` / `__nv_fmin(f)`, which resolve
    only where the serializer finds and links `libdevice.10.bc`; where it
    does not, ptxas stops at "Unresolved extern function '__nv_fmax'"
    (seen with the GPU bundle's self-contained runner). `llvm.intr.maxnum`
    and `llvm.intr.minnum` mean the same (a NaN operand is ignored) and
    NVPTX selects them to `max`/`min`, what libdevice's functions compile
    to. The pipelines run this pass on gpu.modules before
    `convert-gpu-to-nvvm`.

    ```mlir
    // warp-opt --warp-lower-float-min-max
    %m = arith.maxnumf %a, %b : f64
    // becomes %m = llvm.intr.maxnum(%a, %b) : (f64, f64) -> f64
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def WarpConvertNVGPUToNVVMPass : Pass<"warp-convert-nvgpu-to-nvvm"> {
  let summary = "Upstream's nvgpu-to-NVVM patterns at the data layout's "
                "index width, TMA descriptors as kernel arguments";
  let description = [{
    Workaround for upstream: `convert-nvgpu-to-nvvm` converts with a type
    converter of the default, 64-bit, index width whatever the data layout
    says, so under `device-index-bitwidth=32` (a gpu.module whose
    `dlti.dl_spec` gives index 32 bits) every memref an nvgpu op takes
    (the source and destination of `nvgpu.device_async_copy`, cp.async)
    becomes a descriptor of 64-bit sizes beside the 32-bit ones
    `convert-gpu-to-nvvm` makes, and the casts between them reach LLVM
    translation ("LLVM Translation failed for operation:
    builtin.unrealized_conversion_cast"). This pass applies the same
    patterns (`populateNVGPUToNVVMConversionPatterns`) and the same type
    conversions of nvgpu's types with the index width of the data layout
    at the op, which is upstream's behaviour where that width is 64. The
    pipelines run it on gpu.modules that hold nvgpu ops, and on host
    functions (`nvgpu.tma.create.descriptor`).

    Upstream converts nvgpu before outlining kernels; warp's pipelines
    outline first, so a TMA descriptor a `gpu.launch` captured is a kernel
    argument: this pass makes it the pointer it lowers to in the kernel's
    signature (`gpu.func`) and in the launches that pass it
    (`gpu.launch_func`).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::memref::MemRefDialect"];
}

def WarpLowerVectorOpsPass : Pass<"warp-lower-vector-ops"> {
  let summary = "Rewrite the vector ops LLVM has no direct form for into "
                "ones it has (device code)";
  let description = [{
    `convert-gpu-to-nvvm` converts vector ops through the vector dialect's
    to-LLVM interface, which has patterns only for the ops with a direct
    LLVM form. Upstream's own `convert-vector-to-llvm` first rewrites the
    others (`vector.extract_strided_slice` and `insert_strided_slice` into
    shuffles, `broadcast`, `shape_cast`, `transpose`, `step`, `interleave`,
    n-D `bitcast`, `gather`, masks) into ones that have one; upstream's
    `gpu-lower-to-nvvm-pipeline` does not run that step on device code, and
    an op such as `vector.extract_strided_slice` in a kernel then ends in
    "missing `LLVMTranslationDialectInterface` registration". This pass is
    that step with upstream's rewrite patterns, applied greedily; the
    pipelines run it on gpu.modules that hold vector ops.

    ```mlir
    // warp-opt --warp-lower-vector-ops
    %lo = vector.extract_strided_slice %v {offsets = [2], sizes = [2], strides = [1]}
        : vector<4xi32> to vector<2xi32>
    // becomes vector.shuffle %v, %v [2, 3]
    ```
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::arith::ArithDialect"];
}

def WarpIfPresentPass : Pass<"warp-if-present"> {
  let summary = "Run a pass pipeline only where the IR holds one of some "
                "dialects";
  let description = [{
    Runs `pipeline` on the op it is scheduled on when that op contains an op
    of one of `dialects`, or a value (result, operand or block argument)
    whose type belongs to one. Elsewhere it does nothing and keeps every
    analysis, so the pass manager does not verify the unchanged IR again.
    With no `dialects` it runs `pipeline` everywhere.

    Built in C++ (`createWarpIfPatternRootsPass`), it runs an upstream pass
    that only applies a pattern set where an op is a root of one of those
    patterns, the roots taken from upstream's pattern set itself
    (`convert-nvvm-to-llvm`: the NVVM ops lowered through inline PTX;
    `expand-strided-metadata`: subviews, reshapes and metadata queries of
    memrefs). That form prints with no `dialects`, so the printed pipeline
    runs the pass everywhere, which gives the same IR.

    For upstream lowerings that only rewrite their own dialect's ops and
    types (`convert-scf-to-cf`, `convert-vector-to-scf`,
    `warp-convert-nvgpu-to-nvvm`, `lower-affine`, `convert-math-to-llvm`): each
    still walks all of the IR when there is nothing to rewrite, the greedy
    ones fold every op on the way, and the pass manager verifies the IR
    after each; after the warp expansion a 100-reduction kernel is ~2,000
    ops, none of them scf, vector, nvgpu or affine. `warp-lower-to-ptx`
    wraps those passes with it on every gpu.module; printed pipelines show
    the wrapped pass in `pipeline`, so a reproducer reruns exactly what
    ran.

    ```mlir
    // warp-opt --pass-pipeline='builtin.module(gpu.module(warp-if-present{dialects=scf pipeline=convert-scf-to-cf}))'
    // converts scf to cf in the gpu.modules that have scf ops and leaves
    // the others untouched
    ```
  }];
  let options = [
    ListOption<"dialects", "dialects", "std::string",
               "Namespaces of the dialects whose ops or types make the "
               "pipeline run">,
    Option<"pipeline", "pipeline", "std::string", /*default=*/"\"\"",
           "The pass pipeline to run, in textual form, anchored on the op "
           "this pass runs on (passes that can run on any op)">,
  ];
}

def WarpRecordKernelABIPass
    : Pass<"warp-record-kernel-abi", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Record each kernel's source signature for "
                "warp-widen-kernel-index-args";
  let description = [{
    Sets `warp.kernel_abi` on every `gpu.func` kernel of the `gpu.module`:
    its function type before lowering, which says which parameters are
    `index` and which are memrefs (and of what rank). The attribute survives
    `convert-gpu-to-nvvm` on the kernel's `llvm.func`, where
    `warp-widen-kernel-index-args` reads it.

    Kernel parameters whose layout in memory would change with a narrower
    device index are errors here: a memref or vector with `index` elements
    (the host writes 8-byte elements, 32-bit device code would read 4-byte
    ones). So is `memref.extract_aligned_pointer_as_index` of a memref
    outside workgroup memory anywhere in the `gpu.module`: a 64-bit address
    does not fit a 32-bit index (found on the H200: a kernel that built its
    `ld.global.nc` pointer that way faulted). A workgroup address is an
    offset into the block's shared memory and fits.

    `warp-lower-to-ptx` runs it on each gpu.module right after kernel
    outlining, before the warp expansions, when `device-index-bitwidth=32`
    (so only the program's own pointer-as-index ops are rejected:
    `warp.atomic_rmw`'s expansion groups lanes by address with one, whose
    32-bit truncation is the option's documented limit).

    ```mlir
    // warp-opt --warp-record-kernel-abi
    gpu.func @k(%a: memref<?xf32>, %n: index) kernel
    // gets attributes {warp.kernel_abi = (memref<?xf32>, index) -> ()}
    ```
  }];
}

def WarpSetDeviceIndexBitwidthPass
    : Pass<"warp-set-device-index-bitwidth", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Put the device index width in the gpu.module's data layout";
  let description = [{
    Gives the `gpu.module` a data layout whose `index` entry is `bitwidth`,
    so that every conversion that takes its index width from the data layout
    (the MMA lowering's, upstream's patterns inside it) agrees with the
    passes that are told the width: one left at 64 bits leaves casts between
    the widths that nothing removes. An existing layout that names another
    index width is an error on the module. `warp-lower-to-ptx` runs it with
    `device-index-bitwidth=32`.
  }];
  let dependentDialects = ["::mlir::DLTIDialect"];
  let options = [
    Option<"bitwidth", "bitwidth", "unsigned", /*default=*/"64",
           "The device index width">,
  ];
}

def WarpCheckBarePtrArgsPass : Pass<"warp-check-bare-ptr-args"> {
  let summary = "Check that functions' memref arguments and results can be "
                "bare pointers";
  let description = [{
    Under the bare-pointer calling convention (`bare-ptr-memref` for device
    functions, which `host-bare-ptr-memref` implies; `host-bare-ptr-memref`
    for host functions), each memref argument or result of a function
    travels as one pointer, so its shape, strides and offset must be
    static. Every other memref (dynamic, unranked) is an error on its
    function here; the conversion to LLVM would fail on it without saying
    why. Checks the functions in the op it runs on (a `gpu.module` for
    device code, each host `func.func` in the pipelines).
  }];
}

def WarpWidenKernelIndexArgsPass
    : Pass<"warp-widen-kernel-index-args", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Give kernels lowered with 32-bit index the 64-bit parameters "
                "the host passes";
  let description = [{
    Works around upstream's convert-gpu-to-nvvm{index-bitwidth=32}, which
    narrows the kernel's parameters while gpu-to-llvm's host side passes
    64-bit ones.

    After `convert-gpu-to-nvvm{index-bitwidth=32}`, a kernel takes `i32` for
    each `index` parameter and for the offset, sizes and strides of each
    memref descriptor, while the host (`gpu-to-llvm`, always 64-bit) passes
    `i64` for them. For every kernel `llvm.func` that carries
    `warp.kernel_abi` (set by `warp-record-kernel-abi` before lowering), this
    pass turns exactly those parameters back into `i64` and truncates each to
    `i32` at the kernel's entry, so the kernel ABI is the 64-bit one while
    all arithmetic inside stays 32-bit. Other `i32` parameters (an `i32` in
    the source), pointers and non-kernel functions are left alone; the
    attribute is removed. A parameter that is already `i64` (a kernel
    lowered with 64-bit index) is left as it is.

    Contract: the truncation is unchecked, so every index argument and every
    memref offset, size and stride a kernel receives must fit in 31 bits
    (below 2^31) for device code lowered with 32-bit index.

    The number of lowered parameters tells the calling conventions apart: a
    memref of rank r is 3 + 2r parameters (allocated and aligned pointer,
    offset, sizes, strides) or, with the bare-pointer convention, one
    pointer; an unranked memref is a rank and a pointer.

    ```mlir
    // warp-opt --warp-widen-kernel-index-args
    llvm.func @k(%p: !llvm.ptr, %q: !llvm.ptr, %off: i32, %size: i32,
                 %stride: i32, %n: i32) attributes {nvvm.kernel,
        warp.kernel_abi = (memref<?xf32>, index) -> ()}
    // becomes llvm.func @k(%p, %q, %off: i64, %size: i64, %stride: i64,
    //                      %n: i64) with an llvm.trunc to i32 of each
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def WarpRecordReadOnlyArgsPass
    : Pass<"warp-record-read-only-args", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Check read-only memref kernel arguments and record those "
                "that are also noalias for warp-mark-read-only-params";
  let description = [{
    Works around upstream's GPU-to-LLVM lowering, which drops `llvm.noalias`
    on a memref kernel argument lowered to a descriptor, with a warning.

    `llvm.noalias` + `llvm.readonly` on a memref argument of a `gpu.func`
    kernel promise that, while the kernel runs, the argument's buffer is
    only read, and through no other pointer: what NVPTX needs to load it
    through the read-only data path (`ld.global.nc`). Upstream's lowering
    drops `llvm.noalias` on a memref lowered to a descriptor (several
    parameters) with the warning "Cannot copy noalias with non-bare
    pointers". This pass takes both attributes off such arguments and
    records them on the kernel (`warp.read_only_args`, with the kernel's
    source signature); after the lowering, `warp-mark-read-only-params` puts
    them on the parameter the loads go through.

    It first checks the promise it can see. The buffer is followed through
    every op that yields a memref (`memref.subview`, `memref.cast`,
    `memref.reinterpret_cast`, ...), through branches, region control flow
    and calls of functions defined in the `gpu.module`; each op that takes
    it reports its memory effects:

    * an op that writes or frees it (`memref.store`, `vector.store`,
      `memref.atomic_rmw`, `warp.atomic_rmw`, `memref.copy` into it, a
      store in a called function, ...) is an error, for any
      `llvm.readonly` memref argument of a kernel, `llvm.noalias` or not:
      the program contradicts its own promise;
    * an op the pass cannot see through (a call of a function declared
      but not defined, `memref.extract_aligned_pointer_as_index`, an op
      that does not declare its memory effects) is a warning, and
      `llvm.noalias` is taken off: that argument keeps plain `ld.global`
      loads.

    `llvm.readonly` alone is left where it is (upstream copies it to the
    pointers): without `llvm.noalias` a write through another argument
    could change the buffer, so it never gives `ld.global.nc`. Other
    arguments (scalars, unranked memrefs, `!llvm.ptr`) and non-kernel
    functions are not touched.

    `warp-lower-to-ptx` runs it on each gpu.module right after kernel
    outlining, before the warp expansions, so that diagnostics point at
    the program's own ops (`warp.atomic_rmw`, not its expansion).

    ```mlir
    // warp-opt --warp-record-read-only-args
    gpu.func @k(%in: memref<?xf32> {llvm.noalias, llvm.readonly},
                %out: memref<?xf32>) kernel
    // becomes gpu.func @k(%in: memref<?xf32>, %out: memref<?xf32>) kernel
    //   attributes {warp.read_only_args = {args = array<i64: 0>,
    //     signature = (memref<?xf32>, memref<?xf32>) -> ()}}
    ```
  }];
}

def WarpExternDynamicSharedPass
    : Pass<"warp-extern-dynamic-shared", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Declare the dynamic shared memory base as an external, "
                "unsized shared array";
  let description = [{
    Works around upstream's lowering of `gpu.dynamic_shared_memory`
    (`convert-gpu-to-nvvm`, MLIR 22), which declares the base of dynamic
    shared memory as an internal zero-length `llvm.mlir.global` in the
    workgroup address space.

    Gives every such global (address space 3, an `!llvm.array<0 x T>`)
    external linkage, so that NVPTX declares it
    `.extern .shared .align A .b8 NAME[];`, the dynamic window, which PTX
    places after the kernel's static shared variables.

    Why: NVPTX prints the internal zero-length global as a one-byte static
    variable inside the kernel (`.shared .align 16 .b8 __dynamic_shmem__0;`)
    at the start of the static ones, so a kernel with both dynamic shared
    memory and static shared variables (a block collective's buffers)
    reads and writes its dynamic buffer over its static ones; and LLVM may
    drop stores to an internal zero-length object as dead.

    `warp-lower-to-ptx` runs it in its device lowering, right after the
    conversion to LLVM.
  }];
}

def WarpMarkReadOnlyParamsPass
    : Pass<"warp-mark-read-only-params", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Put llvm.noalias and llvm.readonly on the aligned pointer "
                "of each memref recorded by warp-record-read-only-args";
  let description = [{
    After the device lowering to LLVM (`convert-gpu-to-nvvm`), for every
    kernel `llvm.func` that carries `warp.read_only_args`: maps each
    recorded memref argument to its parameters (the mapping of
    `warp-widen-kernel-index-args`, which tells the calling conventions
    apart by the number of parameters) and sets `llvm.noalias` and
    `llvm.readonly` on its aligned pointer (descriptors) or on its pointer
    (bare-pointer convention). The allocated pointer and the other fields
    get nothing: the allocated pointer is never dereferenced. The attribute
    is removed.

    NVPTX then emits `ld.global.nc` for global loads whose underlying
    object is such a kernel parameter, including the vector loads LLVM
    splits and puts back together (which lose `!invariant.load`), whatever
    the index width.

    `warp-lower-to-ptx` runs it in its device lowering, after the
    conversion to LLVM and before the kernel is serialized.

    ```mlir
    // warp-opt --warp-mark-read-only-params
    llvm.func @k(%alloc: !llvm.ptr, %aligned: !llvm.ptr, %off: i64,
                 %size: i64, %stride: i64) attributes {nvvm.kernel,
        warp.read_only_args = {args = array<i64: 0>,
                               signature = (memref<?xf32>) -> ()}}
    // becomes llvm.func @k(%alloc: !llvm.ptr,
    //   %aligned: !llvm.ptr {llvm.noalias, llvm.readonly}, %off: i64, ...)
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ConvertAsyncGPUTokensToEventsPass
    : Pass<"convert-async-gpu-tokens-to-events", "::mlir::ModuleOp"> {
  let summary = "Pass GPU work between async.execute regions as CUDA events";
  let description = [{
    Replaces upstream's lowering of `async.yield` of GPU tokens in
    `gpu-to-llvm`, which in MLIR 22 loses to the async structural type
    conversion once the NVVM dialect is loaded (as it is in every NVVM
    pipeline): the producer's stream is then passed where an event is
    expected, never destroyed, and `mgpuEventSynchronize` fails with
    `CUDA_ERROR_CONTEXT_IS_DESTROYED` or worse.

    After `gpu-async-region`, a `!gpu.async.token` that crosses an
    `async.execute` boundary (yielded by one region, awaited by the host or
    by another region) stands for the GPU work of a stream that the
    producing region owns. This pass lowers each such crossing to the CUDA
    runtime's events, the protocol upstream's `gpu-to-llvm` means to emit:

    - the producer records one event per yielded token on its stream
      (`mgpuEventCreate`, `mgpuEventRecord`) and destroys the stream;
    - a consuming region creates a stream that waits for the event
      (`mgpuStreamCreate`, `mgpuStreamWaitEvent`) and destroys the event;
    - a host `async.await` hands the event to the `gpu.wait` that follows
      (`mgpuEventSynchronize`, `mgpuEventDestroy` after `gpu-to-llvm`).

    The crossing values become `!async.value<!llvm.ptr>`, so later passes see
    no GPU token in an async type.

    ```mlir
    // warp-opt --convert-async-gpu-tokens-to-events
    %t, %v = async.execute -> !async.value<!gpu.async.token> {
      ...
      async.yield %tok : !gpu.async.token
    }
    // becomes: the region records an event on %tok's stream, yields it as
    // !llvm.ptr, and %v : !async.value<!llvm.ptr>
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ConvertDeviceFuncToLLVMPass
    : Pass<"convert-device-func-to-llvm", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower the func dialect inside a gpu.module to LLVM as "
                "convert-gpu-to-nvvm would, without C-interface wrappers";
  let description = [{
    Works around upstream's convert-gpu-to-nvvm, which gives every func.func
    of a gpu.module a `_mlir_ciface_` wrapper that the PTX keeps (see
    below).

    Converts `func.func`, `func.call`, `func.constant` and `func.return`
    inside one `gpu.module` to the LLVM dialect with the type converter of
    `convert-gpu-to-nvvm` (the gpu.module's data layout, `index-bitwidth`,
    `use-bare-ptr-memref-call-conv`, GPU address spaces as NVVM's). Other
    ops are left for `convert-gpu-to-nvvm` (their uses of converted block
    arguments go through `unrealized_conversion_cast`).

    `warp-lower-to-ptx` runs it right before `convert-gpu-to-nvvm`, which
    would otherwise convert the functions itself but first ask for a
    C-interface wrapper (`_mlir_ciface_<name>`) for each: for a function
    defined in the gpu.module, a second function that no device code calls
    and the PTX keeps (it is externally visible). Declarations keep
    `convert-gpu-to-nvvm`'s convention: calls go through the C interface
    (a pointer to each memref descriptor), which the library that defines
    the function provides. A function that asks for a wrapper itself
    (`llvm.emit_c_interface`) still gets one.

    ```mlir
    // warp-opt --pass-pipeline='builtin.module(gpu.module(convert-device-func-to-llvm{index-bitwidth=32}))'
    gpu.module @m {
      func.func @helper(%i: index) -> index { return %i : index }
    }
    // becomes llvm.func @helper(%arg0: i32) -> i32 (the body behind a cast
    // of %arg0 to index), and no _mlir_ciface_helper
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"indexBitwidth", "index-bitwidth", "unsigned", /*default=*/"0",
           "Bitwidth of index (0: from the data layout, 64 without one)">,
    Option<"useBarePtrCallConv", "use-bare-ptr-memref-call-conv", "bool",
           /*default=*/"false",
           "Memref arguments as one pointer each (convert-gpu-to-nvvm's "
           "option of the same name)">,
  ];
}

def WarpMakeGPUMemoryOpsAsyncPass
    : Pass<"warp-make-gpu-memory-ops-async", "::mlir::ModuleOp"> {
  let summary = "Give host code's synchronous gpu.alloc, dealloc, memcpy and "
                "memset a stream of their own";
  let description = [{
    Works around upstream's `gpu-to-llvm` (MLIR 22), which converts
    `gpu.alloc`, `gpu.dealloc`, `gpu.memcpy` and `gpu.memset` only in their
    `async` form with one dependency: a synchronous one stays as it is, and
    the pipeline fails later, in the translation to LLVM IR, at an
    unrelated operation ("LLVM Translation failed for operation:
    builtin.unrealized_conversion_cast").

    Each such op of host code (outside `gpu.module`s; a host-shared
    `gpu.alloc`, which upstream converts only in its synchronous form, is
    left as it is) becomes its `async` form on a token of its own, waited
    for right after it, so that it completes before the next op, as the
    synchronous form says:

    ```mlir
    // warp-opt --warp-make-gpu-memory-ops-async
    %d = gpu.alloc (%n) : memref<?xf32>
    // becomes
    %t = gpu.wait async
    %d, %t2 = gpu.alloc async [%t] (%n) : memref<?xf32>
    gpu.wait [%t2]
    ```

    Async dependencies that the synchronous op names are what the first
    `gpu.wait async` waits for. `warp-lower-to-ptx` runs this pass on host
    code (where its `async` option runs `gpu-async-region`, which makes
    these ops async itself, before it).
  }];
}

#endif // WARPDIALECT_TOOLCHAIN_PASSES_TD
