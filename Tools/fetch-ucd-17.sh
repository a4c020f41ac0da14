#!/usr/bin/env bash
# Fetches the two Unicode 17.0 files the width tables read beside Unicode 15.0 into
# Corpora/unicode/ucd-17.0, from Debian's unicode-data 17.0.0-2 (checked against its SHA-256):
#
#     Tools/fetch-ucd-17.sh
#
# Why: the engine's Unicode is 15.0 (Debian 12's unicode-data, which the conformance files and
# the other tables follow), but today's terminals take widths from a later Unicode. Unicode 16
# made 188 symbols East Asian Wide (U+2630–2637, U+268A–268F, U+4DC0–4DFF, U+1D300–1D356,
# U+1D360–1D376) and U+1171E a spacing mark; Ghostty (on Unicode 17) draws them so, and so do
# the other terminals the `unicode` profile stands for. The generators take these two
# properties from Unicode 17.0 for the code points Unicode 15.0 assigns, and nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."
version=17.0.0-2
sha256=6286fdf4e6d4bf1f46a2865f54df44feda9395ab66f50b12cc384d921a9af865
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
curl -fsS -o "$work/unicode-data.deb" "http://deb.debian.org/debian/pool/main/u/unicode-data/unicode-data_${version}_all.deb"
echo "$sha256  $work/unicode-data.deb" | sha256sum -c --quiet
dpkg-deb -x "$work/unicode-data.deb" "$work/root"
mkdir -p Corpora/unicode/ucd-17.0/extracted
cp "$work/root/usr/share/unicode/EastAsianWidth.txt" Corpora/unicode/ucd-17.0/EastAsianWidth.txt
cp "$work/root/usr/share/unicode/extracted/DerivedGeneralCategory.txt" Corpora/unicode/ucd-17.0/extracted/DerivedGeneralCategory.txt
echo "Corpora/unicode/ucd-17.0: EastAsianWidth.txt and extracted/DerivedGeneralCategory.txt from unicode-data $version"
