; Inno Setup script: the Windows installer of the one-folder bundle (dist\gns3-copilot).
; Build: pyinstaller packaging\gns3-copilot.spec, then
;   ISCC.exe /DAppVersion=0.1.0 packaging\windows\gns3-copilot.iss
; Output: dist\installer\gns3-copilot-<version>-setup.exe. Installs per user (no administrator
; rights): the program in %LOCALAPPDATA%\Programs, the settings and conversations in
; %LOCALAPPDATA%\gns3-copilot (kept on uninstall: they are the user's).
; Signing: set SignTool in the IDE or pass /S"signtool=signtool.exe sign /fd sha256 /tr <TIMESTAMP_URL> /f <CERT.pfx> /p <PASSWORD> $f"
; and uncomment SignTool below (placeholders: a code-signing certificate is not part of this repo).

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif

[Setup]
AppId={{6C1B8E44-5C61-4C53-9B0B-3A4D2F7C0A11}
AppName=GNS3 Copilot
AppVersion={#AppVersion}
AppPublisher=GNS3 Copilot Desktop
DefaultDirName={localappdata}\Programs\GNS3 Copilot
DefaultGroupName=GNS3 Copilot
PrivilegesRequired=lowest
OutputDir=..\..\dist\installer
OutputBaseFilename=gns3-copilot-{#AppVersion}-setup
Compression=lzma2
SolidCompression=yes
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
WizardStyle=modern
; SignTool=signtool

[Files]
Source: "..\..\dist\gns3-copilot\*"; DestDir: "{app}"; Flags: recursesubdirs createallsubdirs ignoreversion

[Icons]
Name: "{group}\GNS3 Copilot"; Filename: "{app}\gns3-copilot.exe"
Name: "{userdesktop}\GNS3 Copilot"; Filename: "{app}\gns3-copilot.exe"; Tasks: desktopicon

[Tasks]
Name: "desktopicon"; Description: "Create a desktop shortcut"; Flags: unchecked

[Run]
Filename: "{app}\gns3-copilot.exe"; Description: "Start GNS3 Copilot"; Flags: nowait postinstall skipifsilent
