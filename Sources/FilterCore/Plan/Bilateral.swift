import Foundation

/// The bilateral filter (Tomasi & Manduchi, ICCV 1998): each pixel the mean of its neighbours weighted by
/// distance and by likeness, w(q) = exp(−|p − q|²/2σs²)·exp(−‖v(q) − v(p)‖²/2σr²), v the premultiplied RGBA working
/// values (so a transparent neighbour is unlike an opaque pixel); neighbours outside the image are left out.
/// `disc` is the definition over |p − q| ≤ ⌈2σs⌉; `horizontal` then `vertical` is the separable approximation of
/// Pham & van Vliet (ICME 2005): the same weights along each axis in turn, the second pass measuring likeness on the
/// first's result — about 4⌈2σs⌉ + 2 taps a pixel instead of π(2σs)².
package struct Bilateral: Equatable, Sendable {
    package enum Window: String, Sendable { case disc, horizontal, vertical }

    package var sigmaSpatial: Double
    package var sigmaRange: Double
    package var window: Window

    package init(sigmaSpatial: Double, sigmaRange: Double, window: Window) {
        self.sigmaSpatial = sigmaSpatial
        self.sigmaRange = sigmaRange
        self.window = window
    }

    package var radius: Int { max(1, Int((2 * sigmaSpatial).rounded(.up))) }

    /// The window's offsets with their spatial weights (float32 of the float64 Gaussian), centre first.
    package var taps: [(dx: Int, dy: Int, weight: Float)] {
        let r = radius
        var taps: [(dx: Int, dy: Int, weight: Float)] = [(0, 0, 1)]
        func add(_ dx: Int, _ dy: Int) {
            guard dx != 0 || dy != 0 else { return }
            taps.append((dx, dy, Float(exp(-Double(dx * dx + dy * dy) / (2 * sigmaSpatial * sigmaSpatial)))))
        }
        switch window {
        case .disc: for dy in -r...r { for dx in -r...r where dx * dx + dy * dy <= r * r { add(dx, dy) } }
        case .horizontal: for dx in -r...r { add(dx, 0) }
        case .vertical: for dy in -r...r { add(0, dy) }
        }
        return taps
    }

    /// The range weight is 2^(−‖Δv‖²·rangeScale): log₂e / 2σr².
    package var rangeScale: Float { Float(1.4426950408889634 / (2 * sigmaRange * sigmaRange)) }

    package var verticalReach: Int { window == .horizontal ? 0 : radius }
}
