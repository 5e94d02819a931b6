/// Who a capture stream belongs to, as PipeWire shows it: `wpctl status`, pw-top and
/// session-manager rules tell apps apart by `application.id`/`application.name` on the
/// client and the stream, and people by the stream's `node.description`.
public struct PipeWireApplication: Sendable, Equatable {
    /// The app ID given to the context (`org.example.PhotoBooth`).
    public let id: String
    /// A readable name: the app ID's last component (`PhotoBooth`).
    public var name: String { id.split(separator: ".").last.map(String.init) ?? id }

    public init(id: String) { self.id = id }

    var clientProperties: [String: String] { ["application.id": id, "application.name": name] }

    /// The stream's own properties: a node name per app (`ocellus.org.example.PhotoBooth`,
    /// characters PipeWire names avoid replaced) and a description naming app and device.
    func streamProperties(device: String?) -> [String: String] {
        let safe = String(id.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_" ? $0 : "_" })
        return clientProperties.merging([
            "node.name": "ocellus." + safe,
            "node.description": device.map { "\(name): \($0)" } ?? name
        ]) { _, new in new }
    }
}
