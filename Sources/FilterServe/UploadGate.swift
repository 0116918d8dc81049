/// At most `limit` request bodies read at once: each is held whole (up to the upload limit) until it is parsed, so
/// without a bound N concurrent uploads hold N × the limit before a single signature is checked. A body beyond the
/// bound is answered 503 with Retry-After at once, its bytes unread.
actor UploadGate {
    let limit: Int
    private var reading = 0

    init(limit: Int) { self.limit = max(1, limit) }

    /// Takes a place; false when all are taken.
    func enter() -> Bool {
        guard reading < limit else { return false }
        reading += 1
        return true
    }

    func leave() { reading -= 1 }

    var count: Int { reading }
}
