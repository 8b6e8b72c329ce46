import ChainServices
import Deferred
import Swinject

/// The child process of the `registerCold` check: registers a chain of `length` distinct
/// services in one form, in a process that has never seen their types, and prints the
/// nanoseconds per registration.
///
/// Before the clock starts, each container registers and resolves one unrelated service in the
/// same form, so that the figure is the cost of registering types seen for the first time, not
/// of the library's own first use. The registrations themselves run inside one never-inlined
/// function per form (``measuredColdRegistration`` and the names in ``symbols``), in which
/// callgrind can count the instructions alone (`--toggle-collect`).
enum RegisterColdChild {
  /// Deferred, each factory's parameters its dependencies.
  static let deferredParameter = "DeferredParameter"
  /// Deferred, each factory resolving its dependencies from the resolver it is given.
  static let deferredResolver = "DeferredResolver"
  /// The forms and containers compared, in the order they are reported.
  static let forms = [
    deferredParameter, deferredResolver, Contender.handWritten, Contender.swinject,
  ]

  /// The measured function of each form, as a callgrind pattern: the start of its mangled name.
  /// Its closures and specialisations would share that start, so the functions have none
  /// (`do`/`catch`, not `must`); their names avoid the module's words (which the mangling
  /// would abbreviate) and their signatures differ (the optimiser would merge look-alikes into
  /// one function).
  static func symbol(of form: String) -> String? {
    let name: String
    switch form {
    case deferredParameter: name = "coldRegisterParameterForm"
    case deferredResolver: name = "coldRegisterResolverForm"
    case Contender.handWritten: name = "coldRegisterHandWritten"
    case Contender.swinject: name = "coldRegisterSwinject"
    default: return nil
    }
    return "$s18DeferredBenchmarks\(name.utf8.count)\(name)*"
  }

  static func run(_ form: String, length: Int) -> Int32 {
    guard length > 0 && length <= Chain.coldLength && length % Chain.chunk == 0 else {
      return fail("no chain of \(length) services in the cold forms")
    }
    let elapsed: UInt64
    switch form {
    case deferredParameter:
      let container = Deferred.Container()
      must { try container.register(Warmup.self) { Warmup() } }
      blackHole(must { try container.resolve(Warmup.self) })
      elapsed = nanoseconds { coldRegisterParameterForm(container, length: length) }
      blackHole(container)
    case deferredResolver:
      let container = Deferred.Container()
      must { try container.register(Warmup.self) { _ in Warmup() } }
      blackHole(must { try container.resolve(Warmup.self) })
      elapsed = nanoseconds { coldRegisterResolverForm(length: length, into: container) }
      blackHole(container)
    case Contender.handWritten:
      let container = HandWrittenContainer()
      container.register(Warmup.self) { _ in Warmup() }
      blackHole(container.resolve(Warmup.self))
      elapsed = nanoseconds { coldRegisterHandWritten(container, length: length) }
      blackHole(container)
    case Contender.swinject:
      let container = Swinject.Container()
      container.register(Warmup.self) { _ in Warmup() }.inObjectScope(.container)
      blackHole(container.resolve(Warmup.self))
      elapsed = nanoseconds { coldRegisterSwinject(container, length: length) }
      blackHole(container)
    default:
      return fail("no form named \(form): \(forms.joined(separator: ", "))")
    }
    print(Double(elapsed) / Double(length))
    return 0
  }
}

// The measured functions: never inlined, and without closures (see `RegisterColdChild.symbol`).

@inline(never)
func coldRegisterParameterForm(_ container: Deferred.Container, length: Int) {
  do { try Chain.registerDeferred(length: length, into: container) } catch {
    fatalError("\(error)")
  }
}

@inline(never)
func coldRegisterResolverForm(length: Int, into container: Deferred.Container) {
  do { try Chain.registerDeferredResolver(length: length, into: container) } catch {
    fatalError("\(error)")
  }
}

@inline(never)
func coldRegisterHandWritten(_ container: HandWrittenContainer, length: Int) {
  Chain.registerHandWritten(length: length, into: container)
}

@inline(never)
func coldRegisterSwinject(_ container: Swinject.Container, length: Int) {
  Chain.registerSwinject(length: length, into: container)
}
