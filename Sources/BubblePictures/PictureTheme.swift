import BubbleLayout

/// The colours of a picture or page: a light and a dark theme, as common phone chat apps draw them.
public enum PictureTheme: String, CaseIterable, Sendable {
    case light, dark

    /// CSS colours (`#rrggbb`).
    public struct Colors: Sendable {
        public var background: String
        public var incoming: String
        public var outgoing: String
        public var text: String
        public var secondary: String
        public var quoteFill: String
        public var quoteBar: String
        public var imageFill: String
        public var dateFill: String
        public var noticeFill: String
        public var read: String
        public var failed: String
        public var shadow: String

        /// The colour a delivery status mark is drawn in.
        func color(for status: DeliveryStatus) -> String {
            status == .read ? read : status == .failed ? failed : secondary
        }
    }

    public var colors: Colors {
        switch self {
        case .light:
            Colors(background: "#efeae2", incoming: "#ffffff", outgoing: "#d9fdd3", text: "#111b21", secondary: "#667781",
                   quoteFill: "#0000000d", quoteBar: "#06cf9c", imageFill: "#d1d7db", dateFill: "#ffffff",
                   noticeFill: "#ffffffcc", read: "#53bdeb", failed: "#ea0038", shadow: "#0000001f")
        case .dark:
            Colors(background: "#0b141a", incoming: "#202c33", outgoing: "#005c4b", text: "#e9edef", secondary: "#8696a0",
                   quoteFill: "#0000002e", quoteBar: "#06cf9c", imageFill: "#2a3942", dateFill: "#182229",
                   noticeFill: "#182229cc", read: "#53bdeb", failed: "#f15c6d", shadow: "#00000040")
        }
    }
}
