#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Writing to the terminal with `write(2)`: unbuffered, so that the demo's output and its child
/// processes' output arrive in order.
public enum Terminal {
  /// Writes text to a file descriptor, all of it.
  ///
  /// - Parameters:
  ///   - text: What to write.
  ///   - descriptor: Where: 1 for standard output, 2 for standard error.
  public static func write(_ text: String, to descriptor: Int32 = 1) {
    var text = text
    text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let count = writeSome(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return }
        offset += count
      }
    }
  }

  /// Whether a file descriptor is a terminal.
  ///
  /// - Parameter descriptor: The file descriptor.
  /// - Returns: `isatty(descriptor)`.
  public static func isTerminal(_ descriptor: Int32) -> Bool {
    isatty(descriptor) != 0
  }
}

/// Where the app draws its screen and writes what its session did.
public enum ScreenTarget: String, Sendable, Hashable, CaseIterable {
  /// Standard output.
  case stdout
  /// Standard error.
  case stderr
  /// Nowhere: the frame is still drawn, then written to `/dev/null`.
  case none
}

/// The app's screen: a file descriptor it writes frames and notes to.
public final class Screen: Sendable {
  /// The descriptor written to.
  public let descriptor: Int32
  /// Whether frames use 24-bit colour escapes.
  public let colored: Bool
  private let owned: Bool

  /// Opens the screen.
  ///
  /// - Parameters:
  ///   - target: Where to draw.
  ///   - color: Force colour on or off; by default, colour when the target is a terminal.
  public init(_ target: ScreenTarget, color: Bool? = nil) {
    switch target {
    case .stdout: descriptor = 1
    case .stderr: descriptor = 2
    case .none: descriptor = open("/dev/null", O_WRONLY | O_CLOEXEC)
    }
    owned = target == .none
    colored = target != .none && (color ?? Terminal.isTerminal(descriptor))
  }

  deinit {
    if owned && descriptor >= 0 { close(descriptor) }
  }

  /// Writes text to the screen.
  ///
  /// - Parameter text: What to write.
  public func write(_ text: String) {
    guard descriptor >= 0 else { return }
    Terminal.write(text, to: descriptor)
  }
}
