/// A streaming encoder into an `OutputFile`: rows top to bottom, then `finish()` publishes the file;
/// `abandon()` (or dropping the encoder unfinished) removes it.
package protocol ImageEncoder: ImageRowSink {
    func finish() throws
    func abandon()
}
