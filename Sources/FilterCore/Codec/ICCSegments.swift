/// An ICC profile split across JPEG APP2 segments ("ICC_PROFILE\0", a sequence number from 1, the segment
/// count, then a piece of the profile), put back together. What is unambiguous is reassembled — exact duplicates
/// are dropped, and a profile whose pieces run 1…n and add up to the size its header declares is taken even when
/// a segment's count disagrees; anything else (a piece missing, two different pieces with one number, numbers or
/// counts of 0, pieces that do not add up) is dropped with the reason, and the image reads as sRGB.
package enum ICCSegments {
    package static let signature: [UInt8] = Array("ICC_PROFILE".utf8) + [0]

    /// `segments`: the APP2 payloads in file order (others than ICC ones are passed over).
    package static func assemble(_ segments: [[UInt8]]) -> (profile: [UInt8]?, problems: [String]) {
        var pieces = [Int: [UInt8]](), counts = Set<Int>(), problems = [String]()
        var conflicting = false
        for segment in segments where segment.count >= 14 && segment.starts(with: signature) {
            let number = Int(segment[12]), count = Int(segment[13])
            guard count > 0, number > 0, number <= count else {
                problems.append("an ICC segment numbered \(number) of \(count) (numbers run from 1 to the count) was passed over")
                continue
            }
            counts.insert(count)
            let data = Array(segment[14...])
            if let earlier = pieces[number] {
                if earlier == data { problems.append("ICC segment \(number) appears twice; one copy was used") }
                else { conflicting = true }
                continue
            }
            pieces[number] = data
        }
        guard !pieces.isEmpty else {
            return (nil, problems.isEmpty ? [] : problems + ["no usable ICC profile remains"])
        }
        if conflicting {
            return (nil, problems + ["two different ICC segments carry the same number, so the profile is ambiguous"])
        }
        let last = pieces.keys.max() ?? 0
        if let missing = (1...last).first(where: { pieces[$0] == nil }) {
            return (nil, problems + ["ICC segment \(missing) of \(last) is missing"])
        }
        let profile = (1...last).flatMap { pieces[$0] ?? [] }
        let size = profile.count >= 4 ? profile[0..<4].reduce(0) { $0 << 8 | Int($1) } : -1
        guard size == profile.count else {
            if let declared = counts.max(), declared > last {
                return (nil, problems + ["ICC segments \(last + 1)…\(declared) of \(declared) are missing"])
            }
            return (nil, problems + ["the ICC segments add up to \(profile.count) bytes but the profile declares \(size)"])
        }
        if counts != [last] {
            problems.append("the ICC segments disagree on their count (\(counts.sorted().map(String.init).joined(separator: ", "))); "
                            + "pieces 1…\(last) make the profile's declared size and were used")
        }
        return (profile, problems)
    }
}
