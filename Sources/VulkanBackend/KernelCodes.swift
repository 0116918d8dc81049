import FilterCore

// The numbers kernels switch on, spelled out by name so reordering an enum cannot silently change what a shader
// computes (Shaders/blend.comp and Shaders/warp.comp list the same numbers).

extension BlendMode {
    var kernelCode: Int32 {
        switch self {
        case .normal: return 0
        case .multiply: return 1
        case .screen: return 2
        case .overlay: return 3
        case .softLight: return 4
        case .hardLight: return 5
        case .darken: return 6
        case .lighten: return 7
        case .difference: return 8
        case .exclusion: return 9
        case .add: return 10
        case .subtract: return 11
        case .colorDodge: return 12
        case .colorBurn: return 13
        case .hue: return 14
        case .saturation: return 15
        case .color: return 16
        case .luminosity: return 17
        }
    }
}

extension ResampleKernel {
    var kernelCode: Int32 {
        switch self {
        case .nearest: return 0
        case .bilinear: return 1
        case .bicubic: return 2
        case .lanczos3: return 3
        }
    }
}
