// Prints, for each line of standard input, the line-break positions ICU's line BreakIterator finds
// in it (code point offsets, separated by spaces, the text's start and end included).
// Makes Corpora/unicode/dictionary-breaks/icu-line-breaks.txt, which DictionaryBreakerTests reads:
//   g++ -O1 Tools/icu/icu-line-breaks.cpp -licuuc -o /tmp/icu-line-breaks
//   /tmp/icu-line-breaks < Corpora/unicode/dictionary-breaks/texts.txt \
//     > Corpora/unicode/dictionary-breaks/icu-line-breaks.txt
// (Debian's libicu-dev; the ICU version goes into the first line of the output.)
#include <unicode/brkiter.h>
#include <unicode/uversion.h>
#include <iostream>
#include <memory>
#include <string>

int main() {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<icu::BreakIterator> lines(icu::BreakIterator::createLineInstance(icu::Locale::getRoot(), status));
    if (U_FAILURE(status)) {
        std::cerr << "no line break iterator: " << u_errorName(status) << "\n";
        return 1;
    }
    std::cout << "# ICU " << U_ICU_VERSION << " line breaks (code point offsets) of texts.txt, line by line\n";
    std::string line;
    while (std::getline(std::cin, line)) {
        icu::UnicodeString text = icu::UnicodeString::fromUTF8(line);
        lines->setText(text);
        bool first = true;
        for (int32_t p = lines->first(); p != icu::BreakIterator::DONE; p = lines->next()) {
            std::cout << (first ? "" : " ") << text.countChar32(0, p);
            first = false;
        }
        std::cout << "\n";
    }
    return 0;
}
