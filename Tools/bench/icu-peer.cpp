// The ICU peer of `bubbles heights`: wraps the same texts with ICU's line break iterator (UAX #14)
// at the same widths in terminal cells, and prints the CPU time it took per scalar. It does only
// what a wrapper built on ICU must do, and nothing `heights` does besides (no reading of a log,
// no bubbles, no output): its time is a floor for an ICU-based tool, not a whole program.
//
// Per text: UTF-8 to UTF-16, one pass of the line break iterator collecting segments with their
// widths (East Asian Wide and Fullwidth 2 cells, nonspacing and enclosing marks, format
// characters and ZWJ 0, others 1; trailing spaces of a segment hang), then per width a greedy
// fill of lines from those segments; a segment wider than a line is cut between grapheme clusters
// (ICU's character break iterator). The sum of line counts is printed so the work is not dropped.
// By default the break iterator walks each text once per width, as a wrapper on ICU does; with
// --prepare-once it walks it once and each width is a fill from the same segments, as ours is.
//
// Input: texts separated by NUL bytes (Tools/bench/icu-peer.sh extracts them from a log).
//     icu-peer [--prepare-once] TEXTS WIDTH...
#include <unicode/brkiter.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utf16.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

namespace {

struct Segment {
    int width;        // cells of the segment without its trailing spaces
    int spaceWidth;   // cells of its trailing spaces (hang at a line's end)
    int start, end;   // UTF-16 offsets, for cutting a segment wider than a line
    bool mandatory;   // a hard break follows
};

int cellWidth(UChar32 c) {
    if (c == 0x200D) return 0;
    int8_t type = u_charType(c);
    if (type == U_NON_SPACING_MARK || type == U_ENCLOSING_MARK || type == U_FORMAT_CHAR || type == U_CONTROL_CHAR)
        return 0;
    int eaw = u_getIntPropertyValue(c, UCHAR_EAST_ASIAN_WIDTH);
    return (eaw == U_EA_WIDE || eaw == U_EA_FULLWIDTH) ? 2 : 1;
}

int width(const icu::UnicodeString& s, int start, int end) {
    int w = 0;
    for (int i = start; i < end;) {
        UChar32 c = s.char32At(i);
        w += cellWidth(c);
        i += U16_LENGTH(c);
    }
    return w;
}

double cpuSeconds() {
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
    bool prepareOnce = argc > 1 && std::string(argv[1]) == "--prepare-once";
    int first = prepareOnce ? 2 : 1;
    if (argc < first + 2) {
        std::fprintf(stderr, "usage: icu-peer [--prepare-once] TEXTS WIDTH...\n");
        return 2;
    }
    std::vector<int> widths;
    for (int i = first + 1; i < argc; i++) widths.push_back(std::atoi(argv[i]));
    FILE* file = std::fopen(argv[first], "rb");
    if (!file) { std::perror(argv[first]); return 1; }
    std::string all;
    char chunk[1 << 16];
    size_t n;
    while ((n = std::fread(chunk, 1, sizeof chunk, file)) > 0) all.append(chunk, n);
    std::fclose(file);

    double started = cpuSeconds();
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::BreakIterator> lines(icu::BreakIterator::createLineInstance(icu::Locale::getRoot(), status));
    std::unique_ptr<icu::BreakIterator> graphemes(icu::BreakIterator::createCharacterInstance(icu::Locale::getRoot(), status));
    if (U_FAILURE(status)) { std::fprintf(stderr, "icu-peer: %s\n", u_errorName(status)); return 1; }

    long long scalars = 0, texts = 0, lineTotal = 0;
    std::vector<Segment> segments;
    size_t at = 0;
    while (at < all.size()) {
        size_t end = all.find('\0', at);
        if (end == std::string::npos) end = all.size();
        icu::UnicodeString text = icu::UnicodeString::fromUTF8(icu::StringPiece(all.data() + at, int32_t(end - at)));
        at = end + 1;
        texts++;
        scalars += text.countChar32();

        for (size_t pass = 0; pass < (prepareOnce ? 1 : widths.size()); pass++) {
        // Prepare: segments between break opportunities, with their widths.
        segments.clear();
        lines->setText(text);
        int32_t from = lines->first();
        for (int32_t to = lines->next(); to != icu::BreakIterator::DONE; from = to, to = lines->next()) {
            int32_t contentEnd = to;
            bool mandatory = lines->getRuleStatus() >= UBRK_LINE_HARD && lines->getRuleStatus() < UBRK_LINE_HARD_LIMIT;
            while (contentEnd > from) {
                UChar c = text.charAt(contentEnd - 1);
                if (c == ' ' || c == '\n' || c == '\r' || c == '\t') contentEnd--; else break;
            }
            segments.push_back({width(text, from, contentEnd), width(text, contentEnd, to), from, contentEnd, mandatory});
        }

        // Layout at each width: a greedy fill.
        for (size_t wi = prepareOnce ? 0 : pass; wi < (prepareOnce ? widths.size() : pass + 1); wi++) {
            int w = widths[wi];
            int lineCount = 1, lineWidth = 0;
            for (size_t k = 0; k < segments.size(); k++) {
                const Segment& s = segments[k];
                if (lineWidth > 0 && lineWidth + s.width > w) { lineCount++; lineWidth = 0; }
                if (s.width > w) {  // wider than a line: cut between grapheme clusters
                    graphemes->setText(text);
                    int32_t g = s.start;
                    for (int32_t next = graphemes->following(g); next != icu::BreakIterator::DONE && g < s.end;
                         g = next, next = graphemes->next()) {
                        int gw = width(text, g, next < s.end ? next : s.end);
                        if (lineWidth > 0 && lineWidth + gw > w) { lineCount++; lineWidth = 0; }
                        lineWidth += gw;
                    }
                } else {
                    lineWidth += s.width;
                }
                lineWidth += s.spaceWidth;
                if (s.mandatory && k + 1 < segments.size()) { lineCount++; lineWidth = 0; }
            }
            lineTotal += lineCount;
        }
        }
    }
    double seconds = cpuSeconds() - started;
    std::printf("icu-peer%s: %lld texts, %lld scalars, %zu widths, %lld lines: %.3f s CPU, %.1f ns per scalar\n",
                prepareOnce ? " --prepare-once" : "", texts, scalars, widths.size(), lineTotal, seconds, seconds * 1e9 / double(scalars));
    return 0;
}
