#!/usr/bin/env bash
# `make package-windows`: cross-builds the app (aas-browser.exe) and aasmd.exe in release
# for x86_64-pc-windows-gnu on this Linux machine, then makes in dist/windows/:
#   AAS-Master-Data-Browser_<version>_x64-setup.exe     the NSIS installer
#   AAS-Master-Data-Browser_<version>_x64-portable.zip  the same files, unzip and run
# Needs `scripts/install-deps.sh windows` (MinGW-w64, NSIS, 7-Zip, ImageMagick).
#
# Why not `cargo tauri build --bundles nsis`: on a Linux host Tauri's bundler downloads
# its NSIS plugin nsis_tauri_utils.dll from GitHub on every run (tauri-bundler 2.10,
# src/bundle/windows/nsis/mod.rs), which these machines cannot reach, and its template
# needs that plugin. So makensis runs here on our own scripts/windows/installer.nsi.
set -euo pipefail
cd "$(dirname "$0")/.."

target=x86_64-pc-windows-gnu
# Its own target dir beside the shared one: a Windows build never holds the Linux
# builds' lock, and switching targets does not rebuild either.
export CARGO_TARGET_DIR=${WINDOWS_TARGET_DIR:-${CARGO_TARGET_DIR:-$HOME/.cache/aas-browser/target}-windows}
out=dist/windows
stage=$out/stage
version=$(python3 -c 'import json; print(json.load(open("src-tauri/tauri.conf.json"))["version"])')
name=AAS-Master-Data-Browser_${version}_x64

# The exe's icon resource and the installer's icon: an .ico made from the PNGs the
# project keeps (256 px as PNG inside, the small sizes as bitmaps). Remade only when
# icon.png changes, so build.rs (which watches it) does not rebuild the app for nothing.
mkdir -p "$out/build"
ico=$PWD/$out/build/icon.ico
if [ ! -s "$ico" ] || [ icons/icon.png -nt "$ico" ]; then
  convert icons/icon.png -define icon:auto-resize=256,64,48,32,16 "$ico"
fi
export AAS_BROWSER_ICO=$ico

cargo build --release --target "$target" -p aas-browser -p aas-cli
release=$CARGO_TARGET_DIR/$target/release

rm -rf "$stage" && mkdir -p "$stage"
cp "$release/aas-browser.exe" "$release/aasmd.exe" "$stage/"
# tauri-build copies the loader (from the webview2-com-sys crate, Microsoft's
# redistributable) beside the exe: the gnu build links it dynamically.
cp "$release/WebView2Loader.dll" "$stage/"
# Release builds keep their symbol tables on this target: about a quarter of the size.
x86_64-w64-mingw32-strip "$stage/aas-browser.exe" "$stage/aasmd.exe"
sed "s/@VERSION@/$version/g; s/\$/\r/" scripts/windows/README.txt > "$stage/README.txt"
cp "$ico" "$stage/icon.ico"

makensis -V2 -DVERSION="$version" -DSRCDIR="$PWD/$stage" -DOUTFILE="$PWD/$out/$name-setup.exe" \
  scripts/windows/installer.nsi

rm -f "$out/$name-portable.zip"
mkdir -p "$stage/zip/$name" && cp "$stage"/{aas-browser.exe,aasmd.exe,WebView2Loader.dll,README.txt} "$stage/zip/$name/"
(cd "$stage/zip" && 7z a -tzip -mx=9 -bd -bso0 "../../$name-portable.zip" "$name")
rm -rf "$stage/zip"

ls -l "$out/$name-setup.exe" "$out/$name-portable.zip"
