/// The catalogue's slice for the files a user names on the command line (`--pcap`, `--keylog`,
/// `--html`, `--pki`, `--session-out`, `--session-in`): why one could not be written or read.
extension Explanations {
    static let englishFiles: [String: String] = [
        "cli.file.isDirectory": "{path} is a directory: an output file never replaces one (name a file, e.g. {path}/out)",
        "cli.file.isSymbolicLink": "{path} is a symbolic link: outputs are never written through one (name the file itself)",
        "cli.file.notAFile": "{path} is neither a regular file nor a terminal or pipe: not written",
        "cli.file.noSuchDirectory": "cannot write {path}: the folder it would go in does not exist",
        "cli.file.notPermitted": "cannot write {path}: permission denied",
        "cli.file.noSpace": "cannot write {path}: no space left on the device",
        "cli.file.system": "cannot write {path}: {reason}",
        "cli.file.replaced": "(replaced the earlier {path})",
        "cli.file.read.noSuchFile": "cannot read {path}: no such file",
        "cli.file.read.isDirectory": "cannot read {path}: it is a directory, not a file",
        "cli.file.read.notAFile": "cannot read {path}: not a regular file (a device or a pipe is not read as one)",
        "cli.file.read.notPermitted": "cannot read {path}: permission denied",
        "cli.file.read.tooLarge": "cannot read {path}: larger than {limit} bytes",
        "cli.file.read.system": "cannot read {path}: {reason}",
    ]

    static let chineseFiles: [String: String] = [
        "cli.file.isDirectory": "{path} 是一个目录：输出文件绝不会替换目录（请给出文件名，例如 {path}/out）",
        "cli.file.isSymbolicLink": "{path} 是一个符号链接：输出绝不经由符号链接写入（请直接给出文件本身）",
        "cli.file.notAFile": "{path} 既不是普通文件，也不是终端或管道：未写入",
        "cli.file.noSuchDirectory": "无法写入 {path}：它所在的目录不存在",
        "cli.file.notPermitted": "无法写入 {path}：权限不足",
        "cli.file.noSpace": "无法写入 {path}：设备上没有剩余空间",
        "cli.file.system": "无法写入 {path}：{reason}",
        "cli.file.replaced": "（已替换原有的 {path}）",
        "cli.file.read.noSuchFile": "无法读取 {path}：没有这个文件",
        "cli.file.read.isDirectory": "无法读取 {path}：它是目录，不是文件",
        "cli.file.read.notAFile": "无法读取 {path}：不是普通文件（设备或管道不能当作文件读取）",
        "cli.file.read.notPermitted": "无法读取 {path}：权限不足",
        "cli.file.read.tooLarge": "无法读取 {path}：超过 {limit} 字节",
        "cli.file.read.system": "无法读取 {path}：{reason}",
    ]
}
