# User Questions，简体中文。人读到的每一条消息；模型读到的内容（错误文本、工具描述、
# JSON 答案）以及智能体自己的文字不在这里。

language-name = 简体中文

## 窗口

window-title = User Questions
window-title-count = User Questions（{ $count }）
window-waiting = { $count } 个待回答
window-empty = 没有待回答的问题。智能体提问时，问题会出现在这里。
window-waiting-list = 待回答的问题（按智能体）
window-dnd = 勿扰
window-language = 语言
window-deadline = 无人回答的问题
window-deadline-off = 等我回答
window-deadline-seconds = { $count } 秒后拒绝
window-deadline-minutes = { $count } 分钟后拒绝
window-deadline-hours = { $count } 小时后拒绝
window-deadline-no-folder = 没有存放设置的文件夹（请设置 USERQ_CONFIG_DIR 或 HOME）。
window-deadline-cannot-keep = 无法把期限保存到 { $path }：{ $error }
window-shortcut-pick = 选择选项
window-shortcut-submit = 提交
window-shortcut-hide = 隐藏窗口
window-reason = 告诉智能体原因，并拒绝
window-reason-hint = 告诉智能体原因，并拒绝（Enter）
window-approve-drops-feedback = 批准不会发送你写的任何评论：智能体只有在“请求修改”时才会读到。再按一次“批准”即可不带评论直接批准。
window-feedback = 反馈
window-feedback-placeholder = 对整个计划的意见（随“修改”发送，也可随“批准”作为备注发送）
window-other = 其他
window-other-placeholder = 其他…
window-your-answer = 你的回答
window-skip = 跳过这个问题
window-submit = 提交
window-dismiss = 忽略
window-no-agent = 无智能体
window-machine = 智能体所在的机器
window-review-hint = 点击行号即可评论该行；按住 Shift 再点另一行可评论两行之间的内容。
window-review-comment = 你的评论
window-review-remove = 删除
window-review-file-comment = 评论这个文件
window-review-overall = 对整个改动的评论
window-review-unchanged = 行未改动
window-review-binary = 二进制文件
window-review-renamed = 重命名自
window-review-added = 新文件
window-review-deleted = 已删除
window-annotations = 批注
window-annotate-hint = 在计划中选中文字，即可评论、要求删除或替换它。
window-annotate-comment = 评论
window-annotate-remove = 删除
window-annotate-replace = 替换
window-annotate-comment-placeholder = 你的评论
window-annotate-remove-placeholder = 删除的理由（可选）
window-annotate-replace-placeholder = 替换为
window-annotate-discard = 丢弃这条批注
window-annotation-addressed = 已处理
window-annotation-open = 未处理
window-picture-not-one = 这不是图片（PNG、JPEG、GIF 或 WebP）。
window-picture-too-big = 图片超过 { $mib } MiB。
window-picture = 图片
window-session = 会话 { $session }
window-subagent = { $depth ->
    [1] 由子智能体提出
   *[other] 由第 { $depth } 层子智能体提出
}
window-group-count = { $count } 个问题

## 托盘

tray-tooltip = User Questions
tray-tooltip-waiting = User Questions：{ $count } 个待回答
tray-open = 打开问题（{ $count }）
tray-dnd = 勿扰
tray-autostart = 登录时启动
tray-quit = 退出
tray-ssh-connecting = { $name }：正在通过 SSH 连接…
tray-ssh-forwarding = { $name }：那里的智能体在这里提问（SSH）
tray-ssh-retrying = { $name }：无法连接（{ $said }）；稍后重试

## 通知

notice-app = User Questions
notice-open = 打开
notice-an-agent = 一个智能体
notice-on-machine = { $machine } 上的 { $who }
notice-title-where = { $agent }（{ $place }）
notice-question-from = 来自 { $agent } 的问题
notice-more = （另有 { $count } 个）
notice-burst = 来自 { $agents } 个智能体的 { $questions } 个新问题
notice-burst-body = 打开 User Questions 来回答。
notice-deadline-denied = 无人及时回答：已拒绝
notice-deadline-dismissed = 无人及时回答：已忽略
notice-deadline-body = { $question }（你的期限：{ $after }）

## userq answer

answer-listening = 以“{ $name }”的身份回答问题（范围 { $scope }）。按 Ctrl-C 停止。
answer-server-gone = （服务已断开；正在等待它恢复）
answer-reconnected = （已重新连接；以“{ $name }”的身份回答）
answer-withdrawn = （问题 { $ask } 已被提问方撤回）
answer-bad-answer = （对 { $ask } 的回答不符合要求：{ $message }）
answer-sent = （已发送）
answer-not-sent = （未发送：{ $error }）
answer-heading = ━━ 问题 { $ask }，来自 { $origin } ━━
answer-origin-agent-by = { $depth ->
    [0] { $by }，智能体 { $agent }
   *[other] { $by }，智能体 { $agent }（子智能体）
}
answer-origin-agent = { $depth ->
    [0] 智能体 { $agent }
   *[other] 智能体 { $agent }（子智能体）
}
answer-origin-local = 一个本地程序
answer-choice-session = ✓ 在本会话中允许（{ $way }）
answer-session-not-kept = 无法保存本会话的规则，因此只允许了这一次：{ $error }
answer-choice-other = ✎ 其他（输入回答）
answer-choice-skip = ↷ 跳过这个问题
answer-choice-dismiss = ✗ 忽略（告诉智能体你不回答）
answer-help-text = 不输入直接按 Enter 即跳过
answer-help-multi = ↑↓ 移动，空格选择，Enter 确认，Esc 跳过
answer-help-select = ↑↓ 移动，Enter 选择，Esc 跳过
answer-help-optional = 可选；按 Enter 跳过
answer-help-pick = 输入以查找，↑↓ 移动，Enter 选定，Esc 跳过
answer-help-pick-multi = 输入以查找，↑↓ 移动，空格标记，Enter 选定已标记的，Esc 跳过
answer-pick-under = （在 { $root } 下选择）
answer-pick-none = （没有符合的路径；请输入一个路径）
answer-anything-to-add = 还有要补充的吗？
answer-your-answer = 你的回答：
answer-feedback = 给智能体的反馈：
answer-error = userq answer：{ $error }

## userq pending

pending-no-agent = （无智能体）
pending-agent = { $depth ->
    [0] { $agent }
   *[other] { $agent }（子智能体）
}
pending-being-offered = 正在分派
pending-none = 没有待回答的问题。

## 连接服务

client-not-running = { $path } 上没有正在监听的 user-questions 服务；请用 `userq serve`（或桌面应用）启动一个
client-closed = 与 user-questions 服务的连接已关闭
client-too-large = { $method } 请求有 { $size } 字节，超过了套接字 { $limit } 字节的上限；请发送更短的详情或 diff
client-foreign = 拒绝 { $path } 上的服务：它以 uid { $uid } 运行，而不是当前用户（uid { $own }）；信任它的容器可设置 USERQ_SERVER_UID={ $uid }

## userq setup

setup-version-found = 找到 { $agent } { $installed }（此版本已在 { $tested } 上测试）。
setup-version-unknown = PATH 中没有 { $agent }：按本版本测试所用的 { $tested } 能读取的内容写入。
setup-left-out = 未写入 { $event }：{ $agent } { $installed } 不认识它（它从 { $since } 开始提供）；升级后请再次运行 setup。
doctor-not-found = 不在 PATH 中
doctor-tested = 已在 { $version } 上测试
doctor-hooks-current = 钩子已设置，指向这个 userq
doctor-hooks-stale = 钩子已过时（另一个 userq，或旧的设置）：请运行 `userq setup { $agent }`（{ $detail }）
doctor-hooks-absent = 未设置：`userq setup { $agent }` 会把它的提示送到这里
doctor-hooks-unreadable = 无法读取它的设置：{ $detail }
doctor-trust-trusted = Codex 已信任该钩子并会运行它
doctor-trust-untrusted = Codex 尚未信任该钩子，所以不会运行它：启动 Codex 并选择 “Trust all and continue”，或打开 /hooks 按 t
doctor-trust-modified = 该钩子在 Codex 信任之后有改动，所以 Codex 不会运行它：请在 Codex 的 /hooks 里重新信任
doctor-trust-disabled = 该钩子已在 Codex 的 /hooks 中关闭
doctor-trust-missing = Codex 没有列出该钩子（请在它的 /hooks 中查看 hooks.json 的错误）
doctor-trust-unknown = 无法询问 Codex 是否信任该钩子：{ $error }
doctor-server-ok = 服务器在 { $socket } 上应答
doctor-server-down = 没有服务器应答，所有钩子都会让智能体用它自己的提示：{ $error }
doctor-no-agents = PATH 中没有找到 User Questions 认识的智能体。
setup-unknown-agent = 未知的智能体“{ $agent }”；请选择其中之一：{ $agents }
setup-project-only = userq setup：--project 不适用于 { $agent }
setup-no-home = userq setup：未设置 HOME
setup-no-self = userq setup：找不到本程序自己的路径：{ $error }
setup-no-cwd = userq setup：无法读取当前文件夹：{ $error }
setup-invalid = userq setup：{ $path } 不是有效的 { $format }，因此未作改动：{ $error }
setup-cannot-read = userq setup：无法读取 { $path }：{ $error }
setup-cannot-write = userq setup：无法写入 { $path }：{ $error }
setup-trust-only = --trust 仅用于 codex（它的钩子需先被信任才会运行）；{ $agent } 会直接运行它的钩子。
setup-trust-no-codex = PATH 中没有 codex，无法请它信任钩子：请在 Codex 的 /hooks 中信任它。
setup-trusting = 正在 Codex 中信任：来自 { $source } 的 { $event } 钩子 `{ $command }`（哈希 { $hash }），与 Codex /hooks 中的“信任”相同。
setup-nothing-to-change =
    { $agent }：无需改动；{ $removing ->
        [yes] User Questions 尚未设置。
       *[no] User Questions 已经设置好了。
    }
setup-added-hook = { $dry ->
        [yes] 将会在 { $file } 中添加 { $event } 钩子
       *[no] 已在 { $file } 中添加 { $event } 钩子
    }
setup-removed-hook = { $dry ->
        [yes] 将会从 { $file } 中移除 { $event } 钩子
       *[no] 已从 { $file } 中移除 { $event } 钩子
    }
setup-added-mcp = { $dry ->
        [yes] 将会在 { $file } 中添加 MCP 服务器 { $name }
       *[no] 已在 { $file } 中添加 MCP 服务器 { $name }
    }
setup-removed-mcp = { $dry ->
        [yes] 将会从 { $file } 中移除 MCP 服务器 { $name }
       *[no] 已从 { $file } 中移除 MCP 服务器 { $name }
    }
setup-hooks-on = { $dry ->
        [yes] 将会在 { $file } 中开启钩子（hooksConfig.enabled）
       *[no] 已在 { $file } 中开启钩子（hooksConfig.enabled）
    }
setup-hooks-off = { $dry ->
        [yes] 将会在 { $file } 中把 hooksConfig.enabled 关回去
       *[no] 已在 { $file } 中把 hooksConfig.enabled 关回去
    }
setup-wrote-file = { $dry ->
        [yes] 将会写入 { $file }
       *[no] 已写入 { $file }
    }
setup-removed-file = { $dry ->
        [yes] 将会删除 { $file }（由 setup 创建）
       *[no] 已删除 { $file }（由 setup 创建）
    }
setup-done-claude-code =
    Claude Code 的权限提示、提问和计划现在都会送到 User Questions。
    也要使用 review_plan 工具：claude mcp add user-questions -- { $userq } mcp
    要留下不阻塞它的问题，并在它自己的对话框仍打开时在这里回答它的提示，请以渠道方式启动它：claude --dangerously-load-development-channels server:user-questions
setup-done-codex = Codex 会请你信任新的钩子：在 Codex 中打开 /hooks，信任 user-questions 钩子，或运行 `userq setup codex --trust`。
setup-done-copilot = GitHub Copilot CLI 的权限请求现在都会送到 User Questions（对所有仓库生效；仓库自己的钩子照常运行）。
setup-done-qwen = Qwen Code 的权限请求现在都会送到 User Questions。
setup-done-cursor = Cursor 的 shell 命令和 MCP 工具调用（编辑器与 cursor-agent 中）在运行前都会送到 User Questions；没有回答时，Cursor 按它自己的规则决定。
setup-done-opencode = OpenCode 的权限请求和提问现在会通过其插件目录中的一个插件送到 User Questions；没有回答时，OpenCode 会在自己的提示里询问。
setup-review-only = userq setup：--review-changes 只用于 claude-code（它的 Stop 钩子），不适用于 { $agent }
setup-done-droid = Factory Droid 原本会问你的命令和编辑现在都会送到 User Questions。
setup-done-antigravity = Antigravity CLI 的命令和文件改动现在会先送到 User Questions；你没有回答时，它会像以前一样在自己的提示里询问。
setup-done-kimi = Kimi Code 的命令和文件编辑在运行前会先按你的规则检查：被规则拒绝的命令会连同规则的理由一起被拒绝。Kimi Code 的钩子只能拒绝，所以规则允许的操作以及所有询问，仍由 Kimi Code 自己的提示处理。
setup-done-kiro = Kiro CLI 现在有一个 User Questions 的智能体：~/.kiro/agents/user-questions.json。它就是 Kiro CLI 的默认智能体，外加一个钩子：命令和文件写入先按你的规则检查，规则拒绝的会被拒绝并附上规则的理由。用 `kiro-cli settings chat.defaultAgent user-questions` 把它设为默认（或用 `kiro-cli chat --agent user-questions` 启动）。Kiro CLI 的钩子只能拒绝，所以规则允许的操作和所有提问仍由 Kiro CLI 自己的提示处理。
setup-done-gemini =
    Gemini CLI 的 shell 命令和文件写入现在都会送到 User Questions；你在那里允许后它们直接运行，
    没有决定时 Gemini CLI 会像以前一样在自己的提示里询问。

## User Questions 自己的意图（权限、计划审阅）的选项，在人看来的样子；发回的仍是协议规定的标签。

label-allow = 允许
label-allow-description = 允许这一次
label-deny = 拒绝
label-deny-description = 不允许运行；智能体会得知你拒绝了
label-approve = 批准
label-approve-description = 按写好的计划执行
label-revise = 修改
label-revise-description = 先修改计划（在反馈里说明怎么改）
label-approve-edits = 批准并自动接受编辑
label-approve-edits-description = 批准，并在本次会话余下的时间里直接接受文件编辑，不再询问

## userq hook：把智能体的工具调用变成一个问题

hook-run-command = 运行这条命令？
hook-edit = 编辑 { $path }？
hook-write = 写入 { $path }？
hook-fetch = 获取 { $url }？
hook-use = 使用 { $tool }？
hook-delete = 删除 { $path }？
hook-patch = 修改 { $count } 个文件？
hook-patch-file = { $change ->
        [add] 新文件
        [delete] 已删除
        [move] 移动到 { $to }
       *[update] 有修改
    }
hook-network = 允许访问网络 { $target }？
hook-mcp = 使用 MCP 服务器 { $server } 的 { $tool }？
hook-write-detail = { $exists ->
        [yes] 覆盖该文件
       *[no] 创建该文件
    }
hook-always-allow = 始终允许 { $what }
hook-always-mode = { $mode } 模式
hook-always-access = 访问 { $dirs }
hook-always-this = 此项
hook-rule = 添加规则：{ $where ->
        [session] 仅限本次会话（不保存）
        [localSettings] 保存到本项目，仅你自己（.claude/settings.local.json）
        [projectSettings] 保存到本项目，共享给所有人（.claude/settings.json）
        [userSettings] 保存到你的所有项目（~/.claude/settings.json）
       *[other] 保存到 Claude Code 建议的位置
    }
hook-no-plan = （Claude Code 没有发送计划文本。）
hook-plan-file = 计划文件：
label-approve-changes-description = 这些改动可以保持原样
label-request-changes = 要求修改
label-request-changes-description = 智能体会带着你的评论继续工作
label-review-question = 批准这些改动吗？
label-review-header = 代码审阅
label-plan-question = 批准这个计划吗？
label-plan-header = 计划审阅

## userq history 与 userq rules

history-no-folder = userq history：没有存放历史的文件夹（请设置 USERQ_DATA_DIR 或 HOME）
history-cannot-open = userq：无法使用历史记录 { $path }：{ $error }
history-cleared = 已从历史中删除 { $count } 条提问。
history-empty = 历史记录为空。
history-pending = 待回答
history-skipped = （已跳过）
history-ended = { $code ->
    [ASK_CANCELLED] 已忽略
    [DEADLINE_PASSED] 到期已忽略
    [ASK_ABORTED] 智能体已撤回
    [NO_PROVIDER] 没有人可以回答
    [SHUTTING_DOWN] 服务已停止
    [SERVER_GONE] 服务已停止
   *[other] 未回答就结束了
}
# 谁决定了问题的结果（历史、导出、窗口的历史视图）。
decider-window = 你（在窗口中）
decider-terminal = 你（在终端中）
decider-machine = 你（在 { $machine } 上）
team-yours = 你投了“{ $label }”。
team-approved = { $who } 已批准。
team-needed = 还需要 { $needed } 人批准。
team-counted = 已算作你的一票：{ $progress }
sentences = { $first }{ $second }
decider-agent-prompt = 智能体自己的提示（钩子已放手）
decider-desk = 你（在桌面）
decider-matrix = { $people }（Matrix）
decider-rule = 记住的回答 { $id }
decider-deadline = 你设的期限
decider-policy = 策略：{ $rules }
decider-answerer = { $name }
history-col-asked = 提问时间
history-col-waited = 等待
history-col-agent = 智能体
history-col-question = 问题
history-col-outcome = 回答或结果
history-col-by = 回答者
deadline-off = 问题会一直等你回答：没有期限。
deadline-on = 无人回答 { $after } 后，权限请求会被拒绝，计划或改动会被退回，其他问题会被忽略。
deadline-no-folder = userq deadline：没有存放设置的文件夹（请设置 USERQ_CONFIG_DIR 或 HOME）
deadline-cannot-keep = userq deadline：无法写入 { $path }：{ $error }
matrix-no-folder = userq matrix：没有存放桥接密钥的文件夹（请设置 USERQ_DATA_DIR 或 HOME）
matrix-password-file = userq matrix：无法读取密码文件 { $path }：{ $error }
matrix-password-empty = userq matrix：密码文件 { $path } 是空的
matrix-init-done = 桥接已设置为 { $user }，设备 { $device }，已交叉签名。
matrix-recovery-key = 它的恢复密钥只显示这一次（请妥善保存；它可以从主服务器的备份中恢复桥接的密钥）：
matrix-status-reached = 主服务器：{ $url }，可以连接。
matrix-status-unreachable = 主服务器：{ $why }
matrix-status-account = 桥接：{ $user }，设备 { $device }。
matrix-status-signed = 交叉签名：是（严格模式下的 Element 会接受它的消息）。
matrix-status-unsigned = 交叉签名：否（严格模式下的 Element 会拒绝它的消息）；请先 `userq matrix leave` 再 `init`。
matrix-left = 桥接（{ $user }）已登出，密钥已删除。
matrix-room-done = 桥接在 { $room } 中提问。
matrix-rule-anyone = 房间里任何人的第一个回答有效。
matrix-rule-team = { $what }需要 { $approvers } 中的 { $quorum } 人批准；任何一位审批人拒绝即结束。
matrix-rule-when = 提到“{ $texts }”的{ $what }
matrix-rule-list-separator = 、
kind-generic = 问题
kind-permission = 权限请求
kind-plan-review = 计划
kind-code-review = 待审查的改动
kind-elicitation = 表单
kind-file-pick = 文件选择
matrix-rule-desk = 在桌面上的回答算一票，作为单独的一个人。
matrix-rule-desk-named = 在桌面上的回答算作 { $desk } 的一票。
matrix-rule-both = { $team }{ $after }
matrix-rule-at-once = 问题会立即发到房间。
matrix-rule-after = 问题在这里无人回答 { $after } 后才发到房间。
matrix-status-no-room = 房间：还没有（`userq matrix room --invite @你:服务器`）。
matrix-status-room = 房间：{ $room }。
matrix-status-member = { $user }（{ $membership }）
matrix-status-approver = { $user }（{ $membership }），审批人
matrix-identity-trusted = 身份与首次所见一致
matrix-identity-changed = 身份自首次所见后已改变：在 `userq matrix trust` 之前其投票不计
matrix-identity-not-seen = 身份将在其首次投票时固定
matrix-identity-none = 尚无经过验证的身份：投票无法计入
matrix-trusted = 现已信任 { $user } 的身份（主密钥 { $key }）：其投票计入。
matrix-error-no-identity = { $user } 尚无交叉签名身份：请先在 Element 中设置密钥
matrix-error-bad-url = { $url } 不是主服务器地址：请给出类似 https://matrix.example.org 的地址
matrix-error-bad-user = { $user } 不是 Matrix 用户 ID：请给出类似 @bridge:example.org 的 ID
matrix-error-unreachable = 无法连接主服务器 { $url }：{ $error }
matrix-error-wrong-password = 主服务器拒绝了 { $user } 的密码
matrix-error-in-use = { $user } 已有在其他设备上创建的身份（交叉签名密钥）：请给桥接一个它自己的账号，由它自己设置
matrix-error-set-up = 桥接已经设置好了（账号 { $user }）；要重新设置，请先运行 `userq matrix leave`
matrix-error-not-set-up = 桥接还没有设置：`userq matrix init 主服务器地址 --user @名称:服务器 --password-file 文件`
matrix-error-files = 桥接在 { $path } 中的文件：{ $error }
matrix-error-homeserver = 主服务器 { $url } 回复：{ $error }
matrix-error-approver-outside = 审批人 { $what } 不在房间里：请加上 --invite { $what }
matrix-error-quorum-alone = --quorum 需要和 --approvers 一起使用
matrix-error-quorum-zero = --quorum 至少为 1
matrix-error-quorum-too-big = --quorum { $quorum } 超过了列出的 { $approvers } 位审批人
matrix-error-bad-room = { $what } 不是房间 ID（!…:服务器）
matrix-error-not-encrypted = { $what } 没有端到端加密：请在它的设置中打开加密，或让 userq 创建房间
matrix-error-desk-not-approver = --desk { $what } 不是审批人之一：请把它加到 --approvers
deadline-not-a-duration = “{ $given }”不是时长：请给出类似 30m 或 2h 的时长，或 off
deadline-too-short = “{ $given }”不到一秒：请给出类似 30m 或 2h 的时长，或 off
policy-file-unreadable = userq rules：无法把 { $path } 读作规则：{ $error }
policy-would-add = 将添加：{ $rule }（未保存）
policy-no-project-file = userq rules trust：{ $dir } 及其上级目录中没有 .userq/rules.toml
policy-trusted = 已信任 { $file }（sha256 { $hash }…，{ $count } 条规则）：在它改变之前，其规则生效。
policy-untrusted = { $file } 未被信任，或之后已改变：其规则不生效。请先阅读它，再运行 userq rules trust。
policy-verdict-allow = 允许
policy-verdict-ask = 询问
policy-verdict-deny = 拒绝
policy-by-rule = { $rule }（{ $origin }）
policy-by-read-only = 只读：它只读取（{ $origin }）
policy-by-maybe = 可能是 { $rule }（{ $origin }）：规则中有词的位置上，是一个运行时才知道的词
policy-by-no-rule = 没有规则允许它
policy-unreadable-syntax = 无法作为 bash 读取
policy-unreadable-dynamic-program = 程序要到运行时才知道
policy-unreadable-runs-text = { $subject } 会运行此处无法读取的文本
policy-unreadable-defines-function = 定义了函数 { $subject }，它可能隐藏任何程序
policy-unreadable-fed-to-interpreter = { $subject } 会运行从输入送给它的程序
policy-unreadable-changes-what-runs = { $subject } 可能改变运行的程序或它读取的内容
policy-unreadable-network = 会打开网络连接
policy-unreadable-dynamic-script = 运行一个到运行时才知道的脚本：{ $subject }
policy-unreadable-too-deep = 嵌套太深，无法读取
policy-unreadable-too-long = 长得无法逐字审阅：超过 10,000 个字符
policy-unreadable-evaluates = { $subject } 会设置变量或求值，可能运行值中包含的内容
policy-unreadable-dynamic-input = 读取一个到运行时才知道名字的文件
policy-unreadable-unknown = 无法理解：{ $subject }
policy-last-used = { $uses }，最近一次 { $when }
policy-unused = 尚未使用
policy-origin-yours = 你的
policy-origin-import = 从 { $agent } 导入
policy-scope-session = 会话 { $id }
policy-scope-everywhere = 所有地方
policy-import-rule = 将添加：{ $rule }
policy-import-left-out = 未导入：{ $rule }（{ $why }）
policy-import-unreadable = userq rules import：无法读取 { $file }：{ $why }
policy-left-out-spans-words = 命令中间的 * 在那里可跨越多个词，这里只匹配一个词
policy-left-out-empty-command = 空命令
policy-left-out-relative-to-settings = 相对于设置文件的路径
policy-left-out-fetch-not-domain = 不是按域名的抓取规则
policy-left-out-no-kind = 策略中没有对应这种操作的工具
policy-left-out-not-a-rule = 不是该智能体能读的规则
policy-left-out-pattern = 正则表达式，策略不读取
policy-left-out-some-modes = 只在该智能体的部分模式下生效
policy-left-out-default = 该智能体对未匹配操作的默认处理；在这里由你决定
policy-left-out-literal-star = 该智能体把 * 当作字面字符，而这里 * 匹配任意文本
policy-left-out-too-many = 备选项多于导入可展开的数量
policy-left-out-everything = 一次性针对所有工具：请逐条添加规则
policy-left-out-one-character = ? 通配符，策略不支持
policy-left-out-space-in-word = 含空格的单个参数，规则的词无法表达
policy-left-out-whole-text = 针对整个路径或地址的模式，其中 * 可跨越文件夹
policy-left-out-one-agent = 只对该智能体自己的某个子智能体生效
policy-left-out-widens = 与一条被略去的规则涉及同一对象的允许规则：少了那条规则，它可能允许代理原本拒绝的操作
policy-import-none = 没有可导入的规则。
policy-import-confirm = 未保存：加上 --yes 再运行一次，以添加这些规则。
policy-import-added = 已把 { $count } 条规则加入你的规则。
policy-would-have-decided = 它本可以决定历史中 { $count } 个没有规则决定的问题。
policy-kept-yours = 你的规则，{ $place }
policy-kept-project = { $file }，{ $place }
policy-kept-import = 从 { $agent } 导入，{ $place }
rules-empty-question = userq rules：--question 不能为空
rules-empty-answer = userq rules：--answer 必须是某个选项的标签
rules-none = 没有记住的回答。
rules-every-client = 所有客户端
rules-uses = 已使用 { $count } 次
rules-no-such = userq rules：没有编号为 { $id } 的规则
window-history-off = 历史记录已关闭。
window-history-off-why = 无法使用 { $file }（{ $error }）。提问照常进行，但在应用重新启动之前不会被记录。
window-history-paused = 历史记录已暂停。
window-history-paused-why = 无法写入 { $file }（{ $error }）。提问照常进行；能够写入后，回答会重新被记录。
window-tab-questions = 问题
window-tab-history = 历史
window-tab-rules = 规则
window-history-search = 搜索问题和回答
window-history-empty = 还没有提问。
window-history-more = 更早
window-history-waited = 等待 { $waited }
window-history-by = 回答者 { $by }
window-history-plan = 打开计划
window-rules-problem = 在修正之前，你的规则不做任何决定：{ $error }
window-rules-policy = 在询问你之前
window-rules-remembered = 记住的回答
window-rules-remove = 删除
window-rules-policy-empty = 还没有规则。用 userq rules allow、ask 或 deny 添加，或用 userq rules import 导入智能体自己的规则。
window-rules-hint = 这些规则允许或拒绝的操作会在询问你之前决定，适用于所有智能体；记住的回答会按你之前的决定立即回答所列客户端的问题。
window-rules-empty = 没有记住的回答。
window-rules-every-client = 所有客户端
window-rules-forget = 忘记
window-rules-uses = 已使用 { $count } 次
window-tab-agents = 智能体
window-agents-hint = 在这里连接的智能体会把权限请求和问题发送到此窗口。连接即执行 userq setup 所做的事；改动会先给你看。
window-agents-none = PATH 中没有找到智能体。
window-agents-known = User Questions 可连接 { $agents }。
window-agents-no-userq = 在本应用旁边和 PATH 中都没有找到 userq，因此无法连接任何智能体：请安装 User Questions 的命令行工具。
window-agents-connected = 已连接：它的问题会送到这里。
window-agents-not-connected = 未连接。
window-agents-stale = 已过期（另一个 userq，或较早的设置）：请更新。
window-agents-unreadable = 无法读取它的设置：{ $detail }
window-agents-unknown = 没有名为 { $agent } 的智能体。
window-agents-connect = 连接
window-agents-update = 更新
window-agents-disconnect = 断开
window-agents-apply = 进行这些改动
window-agents-cancel = 取消
window-agents-nothing = 无需改动。
window-empty-connect = 连接智能体
window-tab-machines = 机器
window-machines-hint = 通过 NATS 中转配对的机器彼此显示问题：在哪台机器前，就在哪台回答。
window-machines-unpaired = 这台机器还不在任何圈子里。在命令行中用“userq relay init nats://主机:端口”新建一个，或用“userq relay join 邀请码”加入一个（邀请码由圈子里的机器生成）。
window-machines-checking = 正在连接中转服务器…
window-machines-connected = 已连接到 { $broker }
window-machines-not-connected = 未连接到 { $broker }：{ $error }
window-machines-this = 本机
window-machines-never = 尚未收到消息
window-machines-seen-now = 刚刚收到消息
window-machines-seen-minutes = { $count } 分钟前收到消息
window-machines-seen-hours = { $count } 小时前收到消息
window-machines-seen-days = { $count } 天前收到消息
window-matrix-title = 你的手机，通过 Matrix
window-matrix-none = 没有 Matrix 桥接。请在命令行中用 "userq matrix init HOMESERVER_URL --user @NAME:SERVER --password-file FILE" 设置，再运行 "userq matrix room --invite @YOU:SERVER"。
window-matrix-checking = 正在连接主服务器…
window-matrix-connected = 已以 { $user } 连接到 { $homeserver }
window-matrix-not-connected = 未连接到 { $homeserver }：{ $error }
window-matrix-no-room = 还没有房间："userq matrix room --invite @YOU:SERVER" 会创建一个。
window-matrix-room = 在 { $room } 中提问，端到端加密
window-matrix-approver-joined = 审批人，已加入
window-matrix-approver-invited = 审批人，已邀请
window-matrix-joined = 已加入
window-matrix-invited = 已邀请
window-machines-invite = 邀请一台机器
window-machines-invite-how = 在另一台机器上用这个邀请码运行“userq relay join”，或扫描二维码。仅可使用一次，{ $minutes } 分钟内有效，需本应用保持运行。
window-error-relay = 中转：{ $error }
window-remember = 记住这个回答
window-remember-client = 仅限 { $client }
window-remember-everyone = 所有客户端
window-shortcut-move = 下一个和上一个问题
window-revision-title = 与上一版相比的改动
window-revision-feedback = 你上次说：
window-error-history = 无法读取或写入历史记录：{ $error }
window-error-no-history = 未保留历史记录。
window-error-no-such-rule = 没有编号为 { $id } 的记住的回答。
window-error-bad-language = 没有语言“{ $lang }”的目录；现有的是：{ $known }。

## MCP 表单（elicitation）

label-send = 发送
label-open = 打开
label-decline = 拒绝
elicit-send = 把这些回答发送给 { $server }
elicit-decline = 告诉 { $server } 你不回答
elicit-from = MCP 服务器 **{ $server }** 请你填写以下内容。你发送的内容只会交给它。
elicit-yes = 是
elicit-no = 否
elicit-not-sent = 未发送：
elicit-required = 必填。
elicit-default = 默认值：{ $value }
elicit-number = 一个数字。
elicit-integer = 一个整数。
elicit-range = { $bound ->
        [both] 从 { $min } 到 { $max }。
        [min] 至少 { $min }。
       *[max] 至多 { $max }。
    }
elicit-length = { $bound ->
        [both] { $min } 到 { $max } 个字符。
        [min] 至少 { $min } 个字符。
       *[max] 至多 { $max } 个字符。
    }
elicit-count = { $bound ->
        [both] 选 { $min } 到 { $max } 项。
        [min] 至少选 { $min } 项。
       *[max] 至多选 { $max } 项。
    }
elicit-email = 一个电子邮件地址。
elicit-uri = 一个 URI，例如 https://example.com/page。
elicit-date = 一个日期，例如 2026-12-31。
elicit-date-time = 一个日期和时间，例如 2026-12-31T09:30:00Z。
elicit-text = 文本。
elicit-invalid = “{ $text }”不符合下面的规则。
elicit-missing = 此项必填。
elicit-url-question = { $server } 请你打开一个网页
elicit-url-open = 在浏览器中打开该网页，并告诉服务器你已打开
elicit-url-host = 该网页位于 **{ $host }**；只有你同意才会打开。
elicit-no-host = 一个不是网址的地址

## userq ssh

ssh-forwarding = 正在把 { $host }:{ $path } 转发到本机：那里的智能体会在这里提问。
ssh-dropped = 到 { $host } 的转发断开了；正在重新建立。
ssh-retry = 暂时无法连接 { $host }（{ $ssh }）；稍后重试。
ssh-refused = userq ssh：到 { $host } 的转发失败：{ $ssh }
ssh-no-userq = 注意：{ $host } 的 PATH 中没有 userq。请在那里安装 user-questions 软件包，或把 userq 可执行文件放到其 PATH 中，这样那里智能体的钩子才能连到本机。
ssh-remembered = 已记住 { $host }，名为 { $name }：`userq serve` 或桌面应用运行时会保持它的转发（`userq ssh --forget { $name }` 停止）。
ssh-not-remembered = userq ssh：没有记住名为 { $name } 的主机（`userq ssh --list` 列出它们）

## userq review

review-nothing = 没有可审阅的内容：没有改动。
review-approved = 已批准。
review-skipped = userq review：审阅被跳过；没有决定。
review-interrupted = userq review：已中断；问题已撤回。
review-no-repo = 不在 git 仓库中（也可以通过管道传入 diff）

## Remembering an Allow as rules (policy::words::way)
remember-command-exact = 仅“{ $command }”本身
remember-command-prefix = “{ $command } …”及任何参数
remember-read = 读取 { $path }
remember-edit = 编辑 { $path }
remember-fetch = 从 { $domain } 获取
remember-mcp-tool = MCP 工具 { $tool }
remember-mcp-server = MCP 服务器 { $server } 的所有工具
remember-in-session = 仅限本会话
remember-in-project = 在 { $project } 中
remember-everywhere = 所有地方
remember-way = { $what }，{ $where }
remember-past = 本会回答过去的 { $count } 个问题
window-remember-allow = 不再询问
window-remember-once = 不记住：仅允许这一次
window-allow-remember = 允许并记住
window-remember-no-way = 没有第 { $way } 种记住这个回答的方式。
window-rules-projects = 项目自己的规则
window-project-trusted = 已信任：其规则在该文件夹及其子文件夹中生效。
window-project-untrusted = 未信任：在你信任此文件当前的内容之前，其规则不做任何决定。
window-project-changed = 信任后已被修改：在你再次信任之前，其规则不做任何决定。
window-project-trust = 信任
window-project-not-a-file = { $file } 不是可以读取的项目 .userq/rules.toml。
window-project-not-trusted = 未能信任 { $file }：{ $error }
window-rules-edit = 编辑
window-rules-save = 保存
window-rules-cancel = 取消
window-rules-not-saved = 未保存：{ $error }

## userq answer --allow/--deny (src/bin/userq/decide.rs)
answer-batch-allow = 允许 { $id }：{ $what }
answer-batch-deny = 拒绝 { $id }：{ $what }
answer-batch-twice = userq answer：{ $id } 同时被允许和拒绝；没有发送任何回答
answer-batch-unknown = userq answer：{ $id } 不是待回答的问题（userq pending 会列出它们）；没有发送任何回答
answer-batch-not-permission = userq answer：{ $id } 不是权限请求，只有权限请求可以一起回答：请在它自己的表单中回答；没有发送任何回答
answer-batch-failed = userq answer：{ $id }：{ $error }

## What each part of a request does, and why it reached you (policy::words)
part-reads = 只读取
part-deletes = 删除文件
part-root = 以 root 身份运行
part-installs = 安装软件包
part-network = 访问网络
part-writes = 写入 { $subject }
part-writes-outside = 写入项目之外：{ $subject }
part-unknown = 未知
why-allowed = 已允许：{ $rule }
why-denied = 已拒绝：{ $rule }
why-ask-rule = 规则要求询问：{ $rule }
why-may-fit = 可能适用的规则：{ $rule }
why-no-rule = 没有规则允许
why-unreadable = 无法确定地读懂
window-agent-says = 智能体说
window-agent-last-message = 它的上一条消息
window-batch-allow = 允许已标记的
window-batch-deny = 拒绝已标记的
window-batch-clear = 清除标记
window-batch-allow-these = 只允许这些请求吗？不会记住任何规则。
window-batch-deny-these = 只拒绝这些请求吗？
window-batch-allow-them = 允许它们
window-batch-deny-them = 拒绝它们
window-batch-back = 返回
window-batch-not-permission = { $id } 不是权限请求：请在它自己的表单里回答。没有发送任何回答。
window-shortcut-mark = 标记一个权限请求以便批量回答（或 Ctrl+点击、Shift+点击）
window-allow-session = 在本会话中允许
window-parts = 它将做什么
pending-part = { $part }：{ $does }（{ $why }）
pending-pick = 在 { $root } 下选择{ $of ->
    [folders] 文件夹
   *[files] 文件
  }

## What a person reads of a request in one look (glance.rs)
glance-branch = 分支 { $branch }
glance-folder = 目录 { $folder }
glance-session = 会话 { $session }
glance-machine = 机器 { $machine }
glance-says = 智能体说：{ $words }
glance-said-last = 它的上一条消息：{ $words }
rules-no-such-project = --project：{ $path } 不是一个文件夹
window-pick-search-files = 搜索文件
window-pick-search-folders = 搜索文件夹
window-pick-under = 位于
window-pick-hidden = 隐藏文件
window-pick-preview = 预览
window-pick-marked = 已标记
window-pick-submit = 选择
window-pick-none = 没有可选的：请少输入几个字母。
window-pick-count = { $total } 个中的 { $shown } 个
window-pick-count-cut = 超过 { $total } 个中的 { $shown } 个
window-pick-nothing = 没有匹配项
window-pick-binary = 不是文本（{ $bytes } 字节）
window-pick-keys-one = ↑↓ 移动 · Enter 选择
window-pick-keys-many = ↑↓ 移动 · 空格 标记 · Enter 选择
