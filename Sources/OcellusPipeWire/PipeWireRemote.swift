import OcellusCore

/// Which PipeWire daemon a connection goes to, and how: a socket name or path (nil:
/// `PIPEWIRE_REMOTE`, else the default socket), or a descriptor handed over for each
/// connection — what the camera portal's `OpenPipeWireRemote` gives a sandboxed app.
public struct PipeWireRemote: Sendable, ExpressibleByStringLiteral, ExpressibleByNilLiteral {
    public let name: String?
    /// Gives a connected descriptor the connection then owns; nil: connect by name.
    let openDescriptor: (@Sendable () throws(OcellusError) -> Int32)?
    /// What messages call the daemon when connecting through a descriptor.
    private let descriptorSource: String?

    public init(name: String?) {
        self.name = name
        openDescriptor = nil
        descriptorSource = nil
    }

    /// Every connection through a descriptor `open` gives, which `source` names in messages.
    public init(descriptorFrom source: String, open: @escaping @Sendable () throws(OcellusError) -> Int32) {
        name = nil
        openDescriptor = open
        descriptorSource = source
    }

    public init(stringLiteral name: String) { self.init(name: name) }
    public init(nilLiteral: ()) { self.init(name: nil) }

    /// Whether connections go through a handed-over descriptor.
    public var isDescriptor: Bool { openDescriptor != nil }

    /// The daemon, for messages.
    var description: String { descriptorSource ?? PipeWireConnection.describe(name) }
}
