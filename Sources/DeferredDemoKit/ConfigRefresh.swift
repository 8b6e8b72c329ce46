/// The background refresh of the cached configuration: it fetches the remote's configuration,
/// checks it, writes it to storage for the next launch, and shows it.
public final class ConfigRefresh: Sendable {
  /// The configuration it brought.
  public let settings: Settings

  private init(settings: Settings) {
    self.settings = settings
  }

  /// Fetches, checks, stores and applies the remote's configuration.
  ///
  /// - Parameters:
  ///   - storage: Where the configuration is cached.
  ///   - remote: The remote.
  ///   - config: The configuration the app shows.
  /// - Returns: The refresh, done.
  /// - Throws: ``DemoError`` if the configuration is bad or cannot be stored.
  public static func run(storage: Storage, remote: SimulatedRemote, config: CachedConfig)
    async throws(DemoError) -> ConfigRefresh
  {
    await remote.roundTrip()  // fetch: simulated latency
    let fresh = try Settings(
      parsing: remote.configuration(after: config.current), source: "refreshed")
    try storage.write(Array(fresh.text.utf8), to: "config")
    config.update(fresh)
    return ConfigRefresh(settings: fresh)
  }
}
