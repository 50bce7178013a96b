fn main() {
    // A Windows exe carries its icon as an .ico resource, which tauri-build requires.
    // The project keeps only PNGs (icons/); scripts/package-windows.sh makes the .ico
    // from them with ImageMagick and names it here. Without it tauri-build looks for
    // src-tauri/icons/icon.ico and says so.
    println!("cargo:rerun-if-env-changed=AAS_BROWSER_ICO");
    let mut attributes = tauri_build::Attributes::new();
    if let Some(ico) = std::env::var_os("AAS_BROWSER_ICO") {
        println!(
            "cargo:rerun-if-changed={}",
            std::path::Path::new(&ico).display()
        );
        attributes = attributes
            .windows_attributes(tauri_build::WindowsAttributes::new().window_icon_path(ico));
    }
    if let Err(e) = tauri_build::try_build(attributes) {
        panic!("{e:#}");
    }
}
