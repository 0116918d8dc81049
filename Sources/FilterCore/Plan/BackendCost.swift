import Foundation

/// What one backend costs on one machine, in the terms a plan can be priced in: measured once per device
/// (`BackendProfiles` in FilterRecipe times a few small renders on each backend) and cached, or read from a recorded
/// file (`FILTERRUN_DEVICE_PROFILE`; the tests keep the H100's and lavapipe's). Decoding and encoding are left out:
/// they run on the CPU whichever backend filters, so they cost both the same.
package struct BackendProfile: Codable, Sendable, Equatable {
    /// What ran: "CPU (2 cores)", "llvmpipe (LLVM 15.0.6, 256 bits)", "NVIDIA H100 80GB HBM3".
    package var name: String
    /// Making the device ready in a process (instance, device, queues, tables); 0 for the CPU. Paid once per
    /// process, so a batch or a server shares it among its renders.
    package var openSeconds: Double
    /// A kernel's first use in a process (its pipeline made, from the driver's cache where there is one); 0 for the
    /// CPU. Counted per plan node.
    package var nodeFirstUseSeconds: Double
    /// A render's own overhead: command buffers and a submit and wait, or the CPU's strip set-up.
    package var renderSeconds: Double
    /// Per pixel of every node's result (a pass over memory), the host↔device transfers of the sources and the
    /// result included on a device.
    package var pixelSeconds: Double
    /// Per pixel-tap beyond each node's first (`WorkEstimate.taps`): what a wider window costs.
    package var tapSeconds: Double

    package init(name: String, openSeconds: Double, nodeFirstUseSeconds: Double, renderSeconds: Double,
                 pixelSeconds: Double, tapSeconds: Double) {
        self.name = name
        self.openSeconds = openSeconds
        self.nodeFirstUseSeconds = nodeFirstUseSeconds
        self.renderSeconds = renderSeconds
        self.pixelSeconds = pixelSeconds
        self.tapSeconds = tapSeconds
    }

    /// The profile as a render pays it: `opened` says the device is already open in this process, `renders` how many
    /// renders of this kind share the opening (a batch's files, a server's requests).
    package func seconds(pixels: Double, extraTaps: Double, nodes: Int, opened: Bool, renders: Int) -> Seconds {
        Seconds(opening: opened ? 0 : openSeconds / Double(max(1, renders)),
                firstUse: nodeFirstUseSeconds * Double(nodes) / Double(max(1, renders)),
                work: renderSeconds + pixels * pixelSeconds + extraTaps * tapSeconds)
    }

    /// A price split by what it pays for.
    package struct Seconds: Sendable, Equatable {
        package var opening: Double
        package var firstUse: Double
        package var work: Double
        package var total: Double { opening + firstUse + work }
    }
}

/// The CPU's and a device's profiles together: what `auto` prices each plan with.
package struct BackendProfiles: Codable, Sendable, Equatable {
    package var cpu: BackendProfile
    package var device: BackendProfile

    package init(cpu: BackendProfile, device: BackendProfile) {
        self.cpu = cpu
        self.device = device
    }

    package init(json: Data) throws {
        self = try JSONDecoder().decode(Self.self, from: json)
    }

    package func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}

/// `auto`'s choice for one plan: both backends priced from the plan's nodes (pixels and pixel-taps, as the work
/// limit counts them) and the profiles, and each cut of the plan with its first part on the CPU and the rest on the
/// device (`PlanSplit`); the cheapest renders. Only a device found cheaper, whole or for the rest, is ever opened.
package struct BackendChoice: Sendable {
    package var cpu: BackendProfile.Seconds
    package var device: BackendProfile.Seconds
    package var deviceName: String
    /// The cheapest cut, priced: its first part on the CPU, the rest on the device (nil when the plan has no cut).
    package var split: Split?
    /// True when the whole plan is cheapest on the device.
    package var usesDevice: Bool { device.total < cpu.total && !usesSplit }
    /// True when the cheapest is the cut: the CPU's part, then the device's.
    package var usesSplit: Bool { split.map { $0.total < min(cpu.total, device.total) } ?? false }

    /// A cut and what each part costs.
    package struct Split: Sendable {
        package var plan: PlanSplit
        package var cpu: BackendProfile.Seconds
        package var device: BackendProfile.Seconds
        package var total: Double { cpu.total + device.total }
    }

    package init(plan: Plan, profiles: BackendProfiles, deviceOpen: Bool, renders: Int) {
        func price(_ profile: BackendProfile, _ work: Work, opened: Bool) -> BackendProfile.Seconds {
            profile.seconds(pixels: work.pixels, extraTaps: work.extraTaps, nodes: work.nodes, opened: opened,
                            renders: renders)
        }
        let work = Work(plan)
        cpu = price(profiles.cpu, work, opened: true)
        device = price(profiles.device, work, opened: deviceOpen)
        deviceName = profiles.device.name
        split = PlanSplit.all(plan).map { cut in
            // The first part's result goes up as float32 working values, four times a stored RGB(A) photo's bytes
            // a pixel, which the device profile's pixel price (measured on stored sources) counts once.
            var rest = Work(cut.rest)
            let node = cut.rest.nodes[0]
            rest.pixels += 3 * Double(node.width) * Double(node.height)
            return Split(plan: cut, cpu: price(profiles.cpu, Work(cut.first), opened: true),
                         device: price(profiles.device, rest, opened: deviceOpen))
        }.min { $0.total < $1.total }
    }

    /// What a plan is priced by: every node's pixels, its pixel-taps beyond the first (as the work limit counts
    /// them), and the nodes that run a kernel (sources are uploads).
    package struct Work: Sendable {
        package var pixels = 0.0
        package var extraTaps = 0.0
        package var nodes = 0

        package init(_ plan: Plan) {
            for (index, node) in plan.nodes.enumerated() {
                let count = Double(node.width) * Double(node.height)
                pixels += count
                extraTaps += count * max(0, WorkEstimate.taps(ofNode: index, in: plan) - 1)
                if case .source = node.primitive { continue }
                nodes += 1
            }
        }
    }

    /// One line for `--explain` and `--verbose`.
    package var explanation: String {
        func ms(_ s: Double) -> String { s >= 1 ? String(format: "%.2f s", s) : String(format: "%.1f ms", s * 1000) }
        let parts = [device.opening > 0 ? "opening \(ms(device.opening))" : nil,
                     device.firstUse > 0 ? "kernels' first use \(ms(device.firstUse))" : nil,
                     "work and transfers \(ms(device.work))"].compactMap { $0 }
        let cut = split.map { split -> String in
            let node = split.plan.first.nodes[split.plan.first.output]
            return ", the CPU up to \(node.origin) (\(node.op)) then \(deviceName) ≈ \(ms(split.total)) (\(ms(split.cpu.total)) + "
                + "\(ms(split.device.total)))"
        } ?? ""
        let placement = usesSplit ? "the CPU up to \(split!.plan.first.nodes[split!.plan.first.output].origin), then the device"
            : usesDevice ? "the device" : "the CPU"
        return "auto by cost: CPU ≈ \(ms(cpu.total)), \(deviceName) ≈ \(ms(device.total)) (" + parts.joined(separator: ", ")
            + ")\(cut); rendering on \(placement) (decoding and encoding are on the CPU either way)"
    }
}
