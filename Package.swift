// swift-tools-version:6.1
import PackageDescription

// Release builds of the tools link the Swift runtime and Foundation statically: the dynamic linker's symbol lookups
// and relocations cost every process ~7 ms (a 400 × 300 thumbnail 22 → 15 ms, a 20 MP one 5 % of its time; resident
// memory 34 → 28 MiB). The library product is untouched: apps link it as they link Swift.
// (Compiling the tool's own module with the flag too makes it name the static Foundation's own libraries for the link.)
let staticRuntimeBuild: [SwiftSetting] = [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]
// They link with lld, keeping the compiler's hot/cold/startup text groups together (the pages a run touches), and
// with packed relative relocations (`.relr.dyn`: 2.2 MiB of `.rela.dyn` read at every start becomes 21 KiB), which
// need glibc 2.36 where the tool runs: `filterrun --version` 19 → 16 MiB resident, every operation ~1.2 MiB less
// (BENCHMARKS.md). FILTERRECIPE_PORTABLE=1 leaves the relocations unpacked for binaries carried to older systems
// (scripts/gpu-bundle.sh). GNU ld packs them too but loses RELRO here (Swift objects' writable `.rodata`); gold
// cannot pack them.
let packedRelocations = Context.environment["FILTERRECIPE_PORTABLE"] == "1"
    ? [] : ["-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"]
let staticRuntimeLink: [LinkerSetting] = [.unsafeFlags(
    ["-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "keep-text-section-prefix"] + packedRelocations,
    .when(platforms: [.linux], configuration: .release))]

// The library's modules, its C kernels and the tests' float64 references are compiled optimized in debug builds too:
// unoptimized, their per-pixel loops were most of the suite's time (the reference checks 133 → 13 s). A debug build
// is for tests here; the executables, the service and the tests themselves (but the CPU backend's) stay unoptimized.
// FILTERRECIPE_DEBUG_UNOPTIMIZED=1 builds them as Swift's debug builds do, for stepping through them in a debugger.
// Each such module is compiled whole (-wmo): in debug SwiftPM splits a module into batches, and optimized batches
// each type-check and optimize much of the module again. Whole, `swift build --build-tests` from an empty .build took
// 351 s against 462 s (10.6 against 14 CPU-minutes; BENCHMARKS.md). Two code-generation threads keep one object file a source file,
// which the index store of a debug build needs ("index output filenames do not match input source files" without);
// the driver notes that it ignores -enable-batch-mode.
let unoptimizedDebug = Context.environment["FILTERRECIPE_DEBUG_UNOPTIMIZED"] == "1"
let optimizedInDebug: [SwiftSetting] = unoptimizedDebug ? []
    : [.unsafeFlags(["-O", "-wmo", "-num-threads", "2"], .when(configuration: .debug))]
let optimizedCInDebug: [CSetting] = unoptimizedDebug ? [] : [.unsafeFlags(["-O2"], .when(configuration: .debug))]

let package = Package(
    name: "FilterRecipe",
    // MARK: - Public products
    products: [
        .library(name: "FilterRecipe", targets: ["FilterRecipe"]),
        .executable(name: "filterrun", targets: ["filterrun"]),
        .executable(name: "filterbench", targets: ["filterbench"]),
        .executable(name: "filterserve", targets: ["filterserve"]),
    ],
    // The HTTP service (FilterServe, filterserve) and its packages are the trait "Server", on by default here. An app
    // that depends on the library alone turns it off (`.package(url: …, from: …, traits: [])`) and resolves none of
    // Hummingbird, SwiftNIO, Prometheus or swift-log (Examples/Consumer does, and scripts/test.sh checks what it
    // resolves).
    traits: [
        .trait(name: "Server", description: "filterserve, the HTTP service, with Hummingbird, SwiftNIO, swift-prometheus "
               + "and swift-log (and the system's libcurl and libcrypto)"),
        .default(enabledTraits: ["Server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation --target FilterRecipe` (the DocC catalog in Sources/FilterRecipe).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The HTTP service only (FilterServe, filterserve): the library and the CLI depend on none of these. Its
        // digests and origin fetches use the system's libcrypto and libcurl (COriginFetch, CLibCrypto) rather than
        // swift-crypto and AsyncHTTPClient: those each compile their own copy of BoringSSL, which was 4½ of the 10
        // minutes a fresh clone took to build on two cores (BENCHMARKS.md).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: [
        // MARK: - System libraries
        .systemLibrary(name: "CPNG", pkgConfig: "libpng16",
                       providers: [.apt(["libpng-dev"])]),
        // Vulkan headers only: the loader is opened at run time, so filterrun runs where no loader is installed.
        .systemLibrary(name: "CVulkan", providers: [.apt(["libvulkan-dev"])]),
        // glslang's pkg-config file omits SPIRV, SPIRV-Tools, the default resource limits, stdc++ and m: the module map links them.
        .systemLibrary(name: "CGlslang", pkgConfig: "glslang",
                       providers: [.apt(["glslang-dev"])]),
        // libpng reports errors through longjmp, which Swift cannot catch: this shim owns every libpng call.
        // It also filters and deflates rows itself (parallel compression), so it links zlib.
        .target(name: "CPNGShim", dependencies: ["CPNG"], cSettings: optimizedCInDebug, linkerSettings: [.linkedLibrary("z")]),
        .systemLibrary(name: "CLCMS", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        // libwebp, its demuxer (ICC/EXIF chunks, animations) and muxer (writing ICCP); errors come back as codes.
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        // libheif (HEIC and AVIF in, AVIF out) with whichever HEVC and AV1 codecs the system built it with.
        .systemLibrary(name: "CHEIF", providers: [.apt(["libheif-dev"])]),
        // libheif and libjxl are loaded on first use through trampolines (CLazyLibraries), not linked: with their
        // codecs they cost every process ~5.5 ms to load, more than a small photo's render.
        .target(name: "CLazyLibraries", linkerSettings: [.linkedLibrary("dl")]),
        // libheif's HEVC decoder replaced by one driving libde265 with a worker thread per core (libheif's starts one).
        .target(name: "CHEVCDecoder", dependencies: ["CLazyLibraries"]),
        // libjxl and its thread pool (JPEG XL in and out); errors come back as status codes. No pkg-config: its
        // cflags carry a define (-DHWY_SHARED_DEFINE, for C++ users of highway) that SwiftPM refuses in packages
        // depended on, and the C API needs none (headers in /usr/include/jxl).
        .systemLibrary(name: "CJXL", providers: [.apt(["libjxl-dev"])]),
        // giflib (GIF in); errors come back as codes.
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CImageQuant", providers: [.apt(["libimagequant-dev"])]),
        .systemLibrary(name: "CAVIF", providers: [.apt(["libavif-dev"])]),
        // libtiff's headers only: the library is loaded when a TIFF is first opened (CLazyLibraries), so a process that
        // reads no TIFF maps neither it nor its codecs' libraries (Lerc, JBIG, zstd, LZMA, libdeflate: ~0.6 MiB).
        .systemLibrary(name: "CTIFF", providers: [.apt(["libtiff-dev"])]),
        // libtiff's tag access is variadic and its messages go through handlers: this shim owns those calls.
        // zlib checks a deflate strip's Adler-32, which libtiff's streaming inflate stops short of.
        .target(name: "CTIFFShim", dependencies: ["CTIFF", "CLazyLibraries"], linkerSettings: [.linkedLibrary("z")]),
        // libjpeg reports errors through error_exit, which must not return: this shim owns every libjpeg call.
        .target(name: "CJPEGShim", dependencies: ["CJPEG", "CKernels"], cSettings: optimizedCInDebug),
        // renameat2 and the async-signal-safe registry of temporary output files.
        .target(name: "CFileShim"),
        // The convolutions' inner loops for AVX2 + FMA, chosen at run time (the build itself assumes only x86-64's
        // SSE2, or the target's baseline elsewhere).
        .target(name: "CKernels", cSettings: optimizedCInDebug),

        // MARK: - Implementation
        // Text set by Pango (HarfBuzz shaping, fontconfig fonts) and rasterised by FreeType or cairo, loaded on first use.
        .target(name: "CText", dependencies: ["CLazyLibraries"]),
        // mallopt, for processes that render one image after another (filterserve, batches).
        .target(name: "CProcessMemory"),
        .target(name: "FilterCore", dependencies: ["CFileShim", "CKernels", "CText", "CProcessMemory"], swiftSettings: optimizedInDebug),
        .target(name: "PNGCodec", dependencies: ["FilterCore", "CPNGShim"], swiftSettings: optimizedInDebug),
        .target(name: "JPEGCodec", dependencies: ["FilterCore", "CJPEGShim"], swiftSettings: optimizedInDebug),
        .target(name: "WebPCodec", dependencies: ["FilterCore", "CWebP", "CKernels"], swiftSettings: optimizedInDebug),
        .target(name: "TIFFCodec", dependencies: ["FilterCore", "CTIFFShim", "CLazyLibraries"], swiftSettings: optimizedInDebug),
        .target(name: "HEIFCodec", dependencies: ["FilterCore", "CHEIF", "CAVIF", "CLazyLibraries", "CHEVCDecoder"], swiftSettings: optimizedInDebug),
        .target(name: "GIFCodec", dependencies: ["FilterCore", "CGIF", "CImageQuant", "CLazyLibraries"], swiftSettings: optimizedInDebug),
        .target(name: "JXLCodec", dependencies: ["FilterCore", "CJXL", "CLazyLibraries"], swiftSettings: optimizedInDebug),
        .target(name: "ColourProfiles", dependencies: ["FilterCore", "CLCMS"], swiftSettings: optimizedInDebug),
        .target(name: "CPUBackend", dependencies: ["FilterCore", "CKernels"], swiftSettings: optimizedInDebug),
        .target(name: "VulkanBackend", dependencies: ["FilterCore", "CVulkan", "CGlslang"],
                swiftSettings: optimizedInDebug, plugins: ["EmbedShaders"]),
        // The public module builds in the Swift 6 language mode (complete concurrency checking).
        .target(name: "FilterRecipe", dependencies: ["FilterCore", "CFileShim", "CPUBackend", "VulkanBackend", "PNGCodec", "JPEGCodec", "WebPCodec", "TIFFCodec", "HEIFCodec", "GIFCodec", "JXLCodec", "ColourProfiles"],
                swiftSettings: [.swiftLanguageMode(.v6)] + optimizedInDebug),
        .executableTarget(name: "filterrun", dependencies: [
            "FilterRecipe", "FilterCore",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], swiftSettings: staticRuntimeBuild, linkerSettings: staticRuntimeLink),
        .executableTarget(name: "filterbench", dependencies: [
            "FilterRecipe", "PNGCodec", "CPUBackend", "VulkanBackend",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], swiftSettings: staticRuntimeBuild, linkerSettings: staticRuntimeLink),

        // MARK: - The HTTP service
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(name: "COriginFetch", linkerSettings: [.linkedLibrary("curl")]),
        .target(name: "FilterServe", dependencies: [
            "FilterRecipe", "FilterCore",
            .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
            .target(name: "CLibCrypto", condition: .when(traits: ["Server"])),
            .target(name: "COriginFetch", condition: .when(traits: ["Server"])),
            .product(name: "Prometheus", package: "swift-prometheus", condition: .when(traits: ["Server"])),
            .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Server"])),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio", condition: .when(traits: ["Server"])),
            .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
        ], swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(name: "filterserve", dependencies: [
            "FilterServe", "FilterRecipe",
            .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], swiftSettings: [.swiftLanguageMode(.v6)]),

        // MARK: - Build tools
        // Shaders/ is embedded into VulkanBackend at build time (GLSL sources, compiled at run time).
        .executableTarget(name: "ShaderEmbedder"),
        .plugin(name: "EmbedShaders", capability: .buildTool(), dependencies: ["ShaderEmbedder"]),

        // The public API listing (docs/API.txt) from the compiler's symbol graphs; scripts/api-listing.sh runs it.
        .executableTarget(name: "APIListing"),

        // MARK: - Documentation
        // The README's Swift listings, compiled by every build.
        .executableTarget(name: "Examples", dependencies: ["FilterRecipe"]),

        // MARK: - Tests
        .target(name: "TestSupport", dependencies: ["FilterCore", "PNGCodec", "JPEGCodec", "CPNG", "VulkanBackend"],
                path: "Tests/TestSupport", swiftSettings: optimizedInDebug),
        .testTarget(name: "FilterCoreTests", dependencies: ["FilterCore", "TestSupport"]),
        .testTarget(name: "PNGCodecTests", dependencies: ["PNGCodec", "TestSupport"]),
        .testTarget(name: "JPEGCodecTests", dependencies: ["JPEGCodec", "TestSupport"]),
        .testTarget(name: "WebPCodecTests", dependencies: ["WebPCodec", "PNGCodec", "TestSupport", "CKernels"]),
        .testTarget(name: "TIFFCodecTests", dependencies: ["TIFFCodec", "PNGCodec", "TestSupport"]),
        .testTarget(name: "HEIFCodecTests", dependencies: ["HEIFCodec", "PNGCodec", "TestSupport"]),
        .testTarget(name: "GIFCodecTests", dependencies: ["GIFCodec", "PNGCodec", "TestSupport"]),
        .testTarget(name: "JXLCodecTests", dependencies: ["JXLCodec", "PNGCodec", "TestSupport"]),
        .testTarget(name: "CPUBackendTests", dependencies: ["CPUBackend", "FilterRecipe", "TestSupport"],
                    // Its fixed-point checks compute their float64 references in the test file itself.
                    swiftSettings: optimizedInDebug),
        .testTarget(name: "FilterRecipeTests", dependencies: ["FilterRecipe", "TestSupport", "GIFCodec", "WebPCodec", "JPEGCodec", "TIFFCodec", "HEIFCodec"]),
        .testTarget(name: "VulkanBackendTests", dependencies: ["VulkanBackend", "FilterRecipe", "TestSupport"]),
        .testTarget(name: "FilterServeTests", dependencies: [
            "FilterServe", "FilterRecipe", "TestSupport", "PNGCodec",
            .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Server"])),
            .product(name: "NIOEmbedded", package: "swift-nio", condition: .when(traits: ["Server"])),
            .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Server"])),
        ]),
        .testTarget(name: "filterrunTests", dependencies: ["TestSupport", "PNGCodec", "JPEGCodec", "WebPCodec", "TIFFCodec", "HEIFCodec", "GIFCodec", "FilterCore"]),
    ],
    swiftLanguageModes: [.v5]
)
