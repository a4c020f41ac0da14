import Testing
import BubbleText
@testable import BubbleFonts

/// A Thai or Myanmar word too wide for its line is cut between graphemes, and the rest of its
/// run is then divided into words afresh from the cut, as Chromium does (ICU's dictionary engine
/// run again on the remainder): `ကျေးဇူးတင်ပါတယ်` in a 40 px box breaks its remainder
/// `ဇူးတင်ပါတယ်` as `ဇူး|တင်|ပါ|တယ်`, where the whole run divided once gave `ကျေးဇူးတင်|ပါ|တယ်`.
@Suite struct DictionaryRestartAfterCutTests {
    static let chains: [String: [String]] = [
        "myanmar": ["NotoSansMyanmar-Subset.ttf", "NotoSans-Subset.ttf", "NotoColorEmoji-Subset.ttf"],
        "thai": ["NotoSansThai-Subset.ttf", "NotoSans-Subset.ttf", "NotoColorEmoji-Subset.ttf"],
    ]

    static func measurer(_ chain: String, size: Double) throws -> PixelMeasurer {
        let fonts = try #require(chains[chain]).map { try FontFixtures.font($0) }
        return PixelMeasurer(chain: try FontChain(fonts: fonts, size: size, script: chain == "thai" ? "thai" : "mym2"))
    }

    /// The lines of `text` at `width` px, as strings (hanging spaces included).
    static func lines(_ measurer: PixelMeasurer, _ text: String, width: Int) -> [String] {
        let bytes = Array(text.utf8)
        return measurer.layout(measurer.prepare(text), width: width * 64).lines.map {
            String(decoding: bytes[$0.utf8Range], as: UTF8.self)
        }
    }

    /// The sweep's Myanmar and Thai texts in a 40 px box, broken as headless Chromium broke them
    /// (Tools/fonts/chromium-line-probe.py, with the sweep's fonts): most lines there end in a
    /// word cut to fit.
    static let chromium: [(chain: String, size: Double, lines: [String])] = [
        ("myanmar", 13, ["မင်္ဂလာ", "ပါ နေ", "ကောင်", "းလား"]),
        ("myanmar", 13, ["ကျေးဇူ", "းတင်ပါ", "တယ် ", "မနက်", "ဖြန်", "တွေ့", "မယ်"]),
        ("myanmar", 13, ["ဒီနေ့ ", "ရာသီဥ", "တု ", "သိပ်", "ကောင်", "းတယ်"]),
        ("myanmar", 13, ["ညနေ ", "7 နာရီ", "လော", "က် ", "ရောက်", "မယ်၊ ", "စောင့်", "နေနော်"]),
        ("myanmar", 15, ["မင်္ဂလ", "ာပါ ", "နေ", "ကော", "င်း", "လား"]),
        ("myanmar", 15, ["ကျေး", "ဇူး", "တင်", "ပါ", "တယ် ", "မနက်", "ဖြန်", "တွေ့", "မယ်"]),
        ("myanmar", 15, ["ဒီနေ့ ", "ရာသီ", "ဥတု ", "သိပ်", "ကော", "င်း", "တယ်"]),
        ("myanmar", 15, ["ညနေ ", "7 နာရီ", "လော", "က် ", "ရော", "က်", "မယ်၊ ", "စောင့်", "နေ", "နော်"]),
        ("myanmar", 16, ["မင်္ဂလ", "ာပါ ", "နေ", "ကော", "င်း", "လား"]),
        ("myanmar", 16, ["ကျေး", "ဇူး", "တင်", "ပါ", "တယ် ", "မနက်", "ဖြန်", "တွေ့", "မယ်"]),
        ("myanmar", 16, ["ဒီနေ့ ", "ရာသီ", "ဥတု ", "သိပ်", "ကော", "င်း", "တယ်"]),
        ("myanmar", 16, ["ညနေ ", "7 ", "နာရီ", "လော", "က် ", "ရော", "က်", "မယ်၊ ", "စောင့်", "နေ", "နော်"]),
        ("myanmar", 17.5, ["မင်္ဂ", "လာ", "ပါ ", "နေ", "ကော", "င်း", "လား"]),
        ("myanmar", 17.5, ["ကျေ", "းဇူး", "တင်", "ပါ", "တယ် ", "မန", "က်", "ဖြန်", "တွေ့", "မယ်"]),
        ("myanmar", 17.5, ["ဒီနေ့ ", "ရာသီ", "ဥတု ", "သိပ်", "ကော", "င်း", "တယ်"]),
        ("myanmar", 17.5, ["ည", "နေ 7 ", "နာရီ", "လော", "က် ", "ရော", "က်", "မယ်၊ ", "စော", "င့်နေ", "နော်"]),
        ("thai", 13, ["สวัสดี", "ครับ วัน", "นี้", "อากาศ", "ดีมาก", "เลย"]),
        ("thai", 13, ["ขอบคุ", "ณมาก", "นะคะ ", "พรุ่งนี้", "เจอกัน", "ที่ร้าน", "กาแฟ"]),
        ("thai", 13, ["ประชุม", "เลื่อนไป", "บ่าย", "สามโมง", "นะ อย่า", "ลืมเอา", "เอกสาร", "มาด้วย"]),
        ("thai", 13, ["กินข้าว", "หรือยัง ", "😀"]),
        ("thai", 13, ["เดี๋ยว", "โทร", "กลับนะ ", "ตอนนี้", "กำลัง", "ขับรถ", "อยู่"]),
        ("thai", 13, ["ส่งรูป", "มาให้ดู", "หน่อยสิ ", "อยาก", "เห็น", "มากเลย"]),
        ("thai", 13, ["แม่บอก", "ว่าให้ซื้อ", "นมกับ", "ไข่ไก่มา", "ด้วยนะ", "ลูก"]),
        ("thai", 13, ["รถติ", "ดมากๆ ", "น่าจะไป", "สายสัก", "สิบห้า", "นาที"]),
        ("thai", 13, ["ขอโทษ", "ที่ตอบ", "ช้า เมื่อ", "วาน", "แบต", "หมดทั้ง", "วันเลย"]),
        ("thai", 13, ["ยินดี", "ด้วยนะ", "ครับกับ", "งานใหม่ ", "ขอให้", "โชคดี", "มากๆ"]),
        ("thai", 13, ["ร้าน", "อาหาร", "ญี่ปุ่นที่", "เปิดใหม่", "ตรงหัว", "มุม", "อร่อย", "มาก"]),
        ("thai", 13, ["ผม", "กำลัง", "เดินทาง", "ไป", "เชียงให", "ม่กับ", "ครอบค", "รัวช่วง", "ปีใหม่"]),
        ("thai", 13, ["ช่วยส่ง", "ที่อยู่มา", "ทางไลน์", "หน่อย", "ได้ไหม", "ครับ"]),
        ("thai", 13, ["เราควร", "นัด", "ประชุม", "ทีมอีก", "ครั้ง", "ก่อนส่ง", "งานให้", "ลูกค้า"]),
        ("thai", 13, ["กรุงเท", "พ", "มหานค", "รเป็น", "เมือง", "หลวง", "ของ", "ประเทศ", "ไทย"]),
        ("thai", 13, ["นัดกันที่", "สยาม", "ตอน 5 ", "โมงเย็น ", "โอเค", "ไหม?"]),
        ("thai", 13, ["ฯลฯ ", "และ", "อื่นๆ ", "อีก", "มากมา", "ยที่ยัง", "ไม่ได้", "พูดถึง"]),
        ("thai", 13, ["สั่ง", "พิซซ่า", "มากิน", "กันไหม ", "หิวแล้", "วอะ 😀"]),
        ("thai", 16, ["สวัสดี", "ครับ ", "วันนี้", "อากา", "ศดี", "มาก", "เลย"]),
        ("thai", 16, ["ขอบคุ", "ณ", "มาก", "นะคะ ", "พรุ่งนี้", "เจอ", "กันที่", "ร้าน", "กาแฟ"]),
        ("thai", 16, ["ประชุ", "ม", "เลื่อน", "ไป", "บ่าย", "สาม", "โมงนะ ", "อย่า", "ลืมเอา", "เอกสา", "รมา", "ด้วย"]),
        ("thai", 16, ["กิน", "ข้าว", "หรือ", "ยัง ", "😀"]),
        ("thai", 16, ["เดี๋ยว", "โทร", "กลับ", "นะ ", "ตอนนี้", "กำลัง", "ขับรถ", "อยู่"]),
        ("thai", 16, ["ส่งรูป", "มาให้", "ดู", "หน่อย", "สิ ", "อยาก", "เห็น", "มาก", "เลย"]),
        ("thai", 16, ["แม่", "บอก", "ว่าให้", "ซื้อนม", "กับไข่", "ไก่มา", "ด้วย", "นะลูก"]),
        ("thai", 16, ["รถติ", "ดมาก", "ๆ น่า", "จะไป", "สาย", "สักสิบ", "ห้า", "นาที"]),
        ("thai", 16, ["ขอโท", "ษที่", "ตอบ", "ช้า ", "เมื่อ", "วาน", "แบต", "หมด", "ทั้งวัน", "เลย"]),
        ("thai", 16, ["ยินดี", "ด้วย", "นะ", "ครับ", "กับ", "งาน", "ใหม่ ", "ขอให้", "โชคดี", "มากๆ"]),
        ("thai", 16, ["ร้าน", "อาหาร", "ญี่ปุ่น", "ที่เปิด", "ใหม่", "ตรง", "หัวมุม", "อร่อย", "มาก"]),
        ("thai", 16, ["ผม", "กำลัง", "เดิน", "ทางไป", "เชียงใ", "หม่กับ", "ครอบ", "ครัว", "ช่วงปี", "ใหม่"]),
        ("thai", 16, ["ช่วย", "ส่งที่", "อยู่มา", "ทาง", "ไลน์", "หน่อย", "ได้ไหม", "ครับ"]),
        ("thai", 16, ["เรา", "ควร", "นัด", "ประชุ", "มทีม", "อีก", "ครั้ง", "ก่อน", "ส่ง", "งานให้", "ลูกค้า"]),
        ("thai", 16, ["กรุงเ", "ทพ", "มหาน", "คร", "เป็น", "เมือง", "หลวง", "ของ", "ประเท", "ศไทย"]),
        ("thai", 16, ["นัดกัน", "ที่", "สยาม", "ตอน ", "5 โมง", "เย็น ", "โอเค", "ไหม?"]),
        ("thai", 16, ["ฯลฯ ", "และ", "อื่นๆ ", "อีก", "มากม", "ายที่", "ยังไม่", "ได้พูด", "ถึง"]),
        ("thai", 16, ["สั่ง", "พิซซ่า", "มากิน", "กัน", "ไหม ", "หิวแล้", "วอะ ", "😀"]),
        ("thai", 17.5, ["สวัสดี", "ครับ ", "วันนี้", "อากา", "ศดี", "มาก", "เลย"]),
        ("thai", 17.5, ["ขอบ", "คุณ", "มาก", "นะคะ ", "พรุ่ง", "นี้เจอ", "กันที่", "ร้าน", "กาแฟ"]),
        ("thai", 17.5, ["ประชุ", "ม", "เลื่อน", "ไป", "บ่าย", "สาม", "โมง", "นะ ", "อย่า", "ลืม", "เอา", "เอกส", "ารมา", "ด้วย"]),
        ("thai", 17.5, ["กิน", "ข้าว", "หรือ", "ยัง ", "😀"]),
        ("thai", 17.5, ["เดี๋ยว", "โทร", "กลับ", "นะ ", "ตอน", "นี้", "กำลัง", "ขับรถ", "อยู่"]),
        ("thai", 17.5, ["ส่งรูป", "มาให้", "ดู", "หน่อ", "ยสิ ", "อยาก", "เห็น", "มาก", "เลย"]),
        ("thai", 17.5, ["แม่", "บอก", "ว่าให้", "ซื้อ", "นม", "กับไข่", "ไก่มา", "ด้วย", "นะลูก"]),
        ("thai", 17.5, ["รถติ", "ดมาก", "ๆ น่า", "จะไป", "สาย", "สัก", "สิบห้า", "นาที"]),
        ("thai", 17.5, ["ขอโท", "ษที่", "ตอบ", "ช้า ", "เมื่อ", "วาน", "แบต", "หมด", "ทั้งวัน", "เลย"]),
        ("thai", 17.5, ["ยินดี", "ด้วย", "นะ", "ครับ", "กับ", "งาน", "ใหม่ ", "ขอให้", "โชคดี", "มากๆ"]),
        ("thai", 17.5, ["ร้าน", "อาหา", "ร", "ญี่ปุ่น", "ที่เปิด", "ใหม่", "ตรง", "หัว", "มุม", "อร่อย", "มาก"]),
        ("thai", 17.5, ["ผม", "กำลัง", "เดิน", "ทาง", "ไป", "เชียงใ", "หม่", "กับ", "ครอบ", "ครัว", "ช่วงปี", "ใหม่"]),
        ("thai", 17.5, ["ช่วย", "ส่งที่", "อยู่มา", "ทาง", "ไลน์", "หน่อ", "ยได้", "ไหม", "ครับ"]),
        ("thai", 17.5, ["เรา", "ควร", "นัด", "ประชุ", "มทีม", "อีก", "ครั้ง", "ก่อน", "ส่ง", "งาน", "ให้", "ลูกค้า"]),
        ("thai", 17.5, ["กรุงเ", "ทพ", "มหาน", "คร", "เป็น", "เมือง", "หลวง", "ของ", "ประเ", "ทศ", "ไทย"]),
        ("thai", 17.5, ["นัด", "กันที่", "สยาม", "ตอน ", "5 ", "โมง", "เย็น ", "โอเค", "ไหม?"]),
        ("thai", 17.5, ["ฯลฯ ", "และ", "อื่นๆ ", "อีก", "มากม", "ายที่", "ยังไม่", "ได้พูด", "ถึง"]),
        ("thai", 17.5, ["สั่ง", "พิซซ่า", "มากิน", "กัน", "ไหม ", "หิวแล้", "วอะ ", "😀"]),
    ]

    @Test(arguments: 0..<chromium.count)
    func linesMatchChromiumAfterCuts(_ index: Int) throws {
        let probe = Self.chromium[index]
        let measurer = try Self.measurer(probe.chain, size: probe.size)
        #expect(Self.lines(measurer, probe.lines.joined(), width: 40) == probe.lines, "\(probe.chain) \(probe.size) px")
    }

    /// The remainder after a cut is divided on its own: the whole run divided once keeps
    /// `ကျေးဇူးတင်` a word, which no line of the cut text ends inside.
    @Test func remainderIsDividedAfresh() throws {
        let text = "ကျေးဇူးတင်ပါတယ်"
        let whole = Array(text.unicodeScalars.map(\.value))
        let once = whole.withUnsafeBufferPointer { DictionaryBreaks.find(in: $0) }
        // Divided once: after ကျေးဇူးတင် (10 scalars) and ပါ (2 more).
        #expect(once == [10, 12])
        let rest = String(text.unicodeScalars.dropFirst(4))  // ဇူးတင်ပါတယ်
        let divided = try #require(DictionaryBreaks.divideRest(Substring(rest).unicodeScalars))
        #expect(divided.utf8Count == rest.utf8.count)
        let cuts = divided.breaks.map { String(decoding: Array(rest.utf8)[..<$0], as: UTF8.self) }
        #expect(cuts == ["ဇူး", "ဇူးတင်", "ဇူးတင်ပါ"])
        #expect(DictionaryBreaks.divideRest(Substring("abc").unicodeScalars) == nil)
    }

    /// A word of a script without a dictionary, cut to fit, changes nothing after the cut.
    @Test func latinCutsAreUnchanged() throws {
        let measurer = try Self.measurer("thai", size: 16)
        let text = "Extraordinarily long words"
        #expect(Self.lines(measurer, text, width: 40).joined() == text)
        #expect(measurer.prepare(text).dictionaryText == nil)
    }
}
