/// A per-pixel operation's own type, which each backend extends with its kernel: the CPU's block loop
/// (CPUBackend/PointOps+CPU.swift) and the Vulkan backend's GLSL (VulkanBackend/PointOps+Vulkan.swift), so neither
/// switches over the operations and adding one is a case of `PointOp`, its type here and one extension a backend.
/// (What the planner asks of an operation — per channel, a step, its neutral — stays with `PointOp`.)
package protocol PointOpDescriptor: Sendable {}

extension PointOp {
    /// The operation's descriptor: the one switch over the operations a backend reaches.
    package var descriptor: any PointOpDescriptor {
        switch self {
        case .matrix(let matrix): return PointOps.Matrix(matrix: matrix)
        case .gamma(let power): return PointOps.Gamma(power: power)
        case let .levels(inBlack, inWhite, gamma, outBlack, outWhite):
            return PointOps.Levels(inBlack: inBlack, inWhite: inWhite, gamma: gamma, outBlack: outBlack, outWhite: outWhite)
        case let .curves(master, red, green, blue): return PointOps.Curves(master: master, red: red, green: green, blue: blue)
        case .threshold(let level): return PointOps.Threshold(level: level)
        case .posterize(let levels): return PointOps.Posterize(levels: levels)
        case .vibrance(let amount): return PointOps.Vibrance(amount: amount)
        case let .vignette(radius, intensity): return PointOps.Vignette(radius: radius, intensity: intensity)
        case let .clamp(low, high): return PointOps.Clamp(low: low, high: high)
        case .clearTransparent: return PointOps.ClearTransparent()
        case let .lut(lut, tetrahedral, strength): return PointOps.LUT(lut: lut, tetrahedral: tetrahedral, strength: strength)
        case .transfer(let conversion): return PointOps.Transfer(conversion: conversion)
        }
    }
}

/// The per-pixel operations' descriptors, one type each, their fields the `PointOp` case's (see it for the maths).
package enum PointOps {
    package struct Matrix: PointOpDescriptor { package let matrix: ColorMatrix }
    package struct Gamma: PointOpDescriptor { package let power: Float }
    package struct Levels: PointOpDescriptor {
        package let inBlack: Float, inWhite: Float, gamma: Float, outBlack: Float, outWhite: Float
    }
    package struct Curves: PointOpDescriptor { package let master: ToneCurve?, red: ToneCurve?, green: ToneCurve?, blue: ToneCurve? }
    package struct Threshold: PointOpDescriptor { package let level: Float }
    package struct Posterize: PointOpDescriptor { package let levels: Float }
    package struct Vibrance: PointOpDescriptor { package let amount: Float }
    package struct Vignette: PointOpDescriptor { package let radius: Float, intensity: Float }
    package struct Clamp: PointOpDescriptor { package let low: Float, high: Float }
    package struct ClearTransparent: PointOpDescriptor {}
    package struct LUT: PointOpDescriptor { package let lut: ColourLUT, tetrahedral: Bool, strength: Float }
    package struct Transfer: PointOpDescriptor { package let conversion: TransferConversion }
}
