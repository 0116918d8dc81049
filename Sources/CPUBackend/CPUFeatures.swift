import CKernels

/// The vector instruction sets the CPU backend's C loops may use, decided at run time (the build assumes only the
/// architecture's baseline). `FILTERRUN_SIMD=portable` in the environment keeps every loop in portable Swift.
package enum CPUFeatures {
    /// True when the AVX2 + FMA convolution loops run; setting false forces the portable loops (tests compare the
    /// two), setting true re-enables them where the CPU has both.
    package static var avx2: Bool {
        get { fr_kernels_avx2() != 0 }
        set { fr_kernels_set_avx2(newValue ? 1 : 0) }
    }

    /// How the loops run, for reports.
    package static var description: String { avx2 ? "AVX2+FMA" : "portable SIMD" }
}
