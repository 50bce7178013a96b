; The Windows installer of AAS Master Data Browser, built by scripts/package-windows.sh
; with Debian's makensis. It is ours rather than Tauri's template because Tauri's bundler
; downloads its NSIS plugin (nsis_tauri_utils.dll) from GitHub on every Linux build.
;
; What it does: a per-user install without admin rights into
; %LOCALAPPDATA%\Programs\AAS Master Data Browser, a Start menu entry, an uninstaller
; (listed in Settings > Apps), and Microsoft Edge WebView2 handled as Tauri's default
; "downloadBootstrapper" mode does: when the runtime is missing, Microsoft's bootstrapper
; is downloaded and run; if that fails the installer says what to install, and finishes.
;
; makensis -DVERSION=0.1.0 -DSRCDIR=<folder with the files> -DOUTFILE=<setup.exe> installer.nsi

!ifndef VERSION
  !error "define VERSION, SRCDIR and OUTFILE (see scripts/package-windows.sh)"
!endif
!ifndef SRCDIR
  !error "define SRCDIR"
!endif
!ifndef OUTFILE
  !error "define OUTFILE"
!endif

!define PRODUCT "AAS Master Data Browser"
!define IDENTIFIER "org.aasbrowser.desktop"
!define PUBLISHER "AAS Master Data Browser contributors"
!define UNINSTKEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\${IDENTIFIER}"
; The AASX file type as this app opens it (AAS Part 5's media type).
!define PROGID "${IDENTIFIER}.aasx"
!define AASXMIME "application/asset-administration-shell-package"
; WebView2 Runtime's client id, where Microsoft's docs say to look for its version.
!define WEBVIEW2APPGUID "{F3017226-FE2A-4295-8BDF-00C3A9A7E4C5}"
!define WEBVIEW2URL "https://go.microsoft.com/fwlink/p/?LinkId=2124703"

Unicode true
; A 64-bit installer for a 64-bit app (Debian's NSIS has the amd64 stubs).
Target amd64-unicode
SetCompressor /SOLID lzma
Name "${PRODUCT}"
OutFile "${OUTFILE}"
RequestExecutionLevel user
InstallDir "$LOCALAPPDATA\Programs\${PRODUCT}"
InstallDirRegKey HKCU "${UNINSTKEY}" "InstallLocation"
ShowInstDetails show

VIProductVersion "${VERSION}.0"
VIAddVersionKey "ProductName" "${PRODUCT}"
VIAddVersionKey "CompanyName" "${PUBLISHER}"
VIAddVersionKey "FileDescription" "${PRODUCT} installer"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "LegalCopyright" "${PUBLISHER}"

!include "MUI2.nsh"
!include "LogicLib.nsh"

!define MUI_ICON "${SRCDIR}\icon.ico"
!define MUI_UNICON "${SRCDIR}\icon.ico"
!define MUI_ABORTWARNING
!define MUI_FINISHPAGE_RUN "$INSTDIR\aas-browser.exe"
!define MUI_FINISHPAGE_RUN_TEXT "Start ${PRODUCT}"

!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

Section "Install"
  SetOutPath "$INSTDIR"
  File "${SRCDIR}\aas-browser.exe"
  File "${SRCDIR}\aasmd.exe"
  ; The windows-gnu build loads the WebView2 loader from beside the exe.
  File "${SRCDIR}\WebView2Loader.dll"
  File "${SRCDIR}\README.txt"
  WriteUninstaller "$INSTDIR\uninstall.exe"

  CreateShortCut "$SMPROGRAMS\${PRODUCT}.lnk" "$INSTDIR\aas-browser.exe" "" "$INSTDIR\aas-browser.exe" 0

  WriteRegStr HKCU "${UNINSTKEY}" "DisplayName" "${PRODUCT}"
  WriteRegStr HKCU "${UNINSTKEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINSTKEY}" "Publisher" "${PUBLISHER}"
  WriteRegStr HKCU "${UNINSTKEY}" "DisplayIcon" "$\"$INSTDIR\aas-browser.exe$\""
  WriteRegStr HKCU "${UNINSTKEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTKEY}" "UninstallString" "$\"$INSTDIR\uninstall.exe$\""
  WriteRegStr HKCU "${UNINSTKEY}" "QuietUninstallString" "$\"$INSTDIR\uninstall.exe$\" /S"
  WriteRegDWORD HKCU "${UNINSTKEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTKEY}" "NoRepair" 1

  ; .aasx files open with the app (a double-click passes the path). Offered under
  ; "Open with" always; the default only where no other app (AASX Package Explorer) is.
  WriteRegStr HKCU "Software\Classes\${PROGID}" "" "Asset Administration Shell package"
  WriteRegStr HKCU "Software\Classes\${PROGID}\DefaultIcon" "" "$\"$INSTDIR\aas-browser.exe$\",0"
  WriteRegStr HKCU "Software\Classes\${PROGID}\shell\open\command" "" "$\"$INSTDIR\aas-browser.exe$\" $\"%1$\""
  WriteRegStr HKCU "Software\Classes\.aasx\OpenWithProgids" "${PROGID}" ""
  WriteRegStr HKCU "Software\Classes\.aasx" "Content Type" "${AASXMIME}"
  ReadRegStr $0 HKCU "Software\Classes\.aasx" ""
  ${If} $0 == ""
    WriteRegStr HKCU "Software\Classes\.aasx" "" "${PROGID}"
  ${EndIf}
  ; Explorer reads associations at start: tell it they changed (SHCNE_ASSOCCHANGED).
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
SectionEnd

Section "WebView2"
  ; Installed per machine (either registry view) or per user?
  ReadRegStr $0 HKLM "SOFTWARE\WOW6432Node\Microsoft\EdgeUpdate\Clients\${WEBVIEW2APPGUID}" "pv"
  ${If} $0 == ""
    ReadRegStr $0 HKLM "SOFTWARE\Microsoft\EdgeUpdate\Clients\${WEBVIEW2APPGUID}" "pv"
  ${EndIf}
  ${If} $0 == ""
    ReadRegStr $0 HKCU "SOFTWARE\Microsoft\EdgeUpdate\Clients\${WEBVIEW2APPGUID}" "pv"
  ${EndIf}
  ${If} $0 != ""
  ${AndIf} $0 != "0.0.0.0"
    DetailPrint "Microsoft Edge WebView2 Runtime $0 is installed."
    Return
  ${EndIf}

  ; Missing: fetch Microsoft's bootstrapper (about 2 MB) and run it. PowerShell is on
  ; every Windows 10 and 11; NSIS's own download plugin cannot speak https.
  DetailPrint "Downloading the Microsoft Edge WebView2 Runtime installer..."
  StrCpy $1 "$TEMP\MicrosoftEdgeWebview2Setup.exe"
  Delete "$1"
  nsExec::ExecToLog `powershell.exe -NoProfile -NonInteractive -ExecutionPolicy Bypass -Command "[Net.ServicePointManager]::SecurityProtocol = [Net.SecurityProtocolType]::Tls12; Invoke-WebRequest -UseBasicParsing -Uri '${WEBVIEW2URL}' -OutFile '$1'"`
  Pop $2
  ${If} $2 == 0
  ${AndIf} ${FileExists} "$1"
    DetailPrint "Installing the Microsoft Edge WebView2 Runtime..."
    ExecWait `"$1" /silent /install` $2
    Delete "$1"
    ${If} $2 == 0
      DetailPrint "Microsoft Edge WebView2 Runtime installed."
      Return
    ${EndIf}
  ${EndIf}
  ; Not a silent failure: say what is missing and where to get it, and finish the install.
  DetailPrint "The Microsoft Edge WebView2 Runtime could not be installed (result: $2)."
  MessageBox MB_ICONEXCLAMATION|MB_OK "${PRODUCT} shows its window with the Microsoft Edge WebView2 Runtime, which is not installed and could not be downloaded now.$\r$\n$\r$\nInstall the Evergreen WebView2 Runtime from https://developer.microsoft.com/microsoft-edge/webview2/ (or ask your IT department), then start ${PRODUCT} from the Start menu.$\r$\n$\r$\nThe command-line tool aasmd.exe works without it." /SD IDOK
SectionEnd

Section "Uninstall"
  Delete "$INSTDIR\aas-browser.exe"
  Delete "$INSTDIR\aasmd.exe"
  Delete "$INSTDIR\WebView2Loader.dll"
  Delete "$INSTDIR\README.txt"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  Delete "$SMPROGRAMS\${PRODUCT}.lnk"
  DeleteRegKey HKCU "${UNINSTKEY}"
  DeleteRegKey HKCU "Software\Classes\${PROGID}"
  DeleteRegValue HKCU "Software\Classes\.aasx\OpenWithProgids" "${PROGID}"
  ReadRegStr $0 HKCU "Software\Classes\.aasx" ""
  ${If} $0 == "${PROGID}"
    DeleteRegValue HKCU "Software\Classes\.aasx" ""
  ${EndIf}
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
  ; Settings, snapshots and logs (%APPDATA%\${IDENTIFIER}) are the user's: kept.
SectionEnd
