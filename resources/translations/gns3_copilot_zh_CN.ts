<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>App</name>
    <message>
        <location filename="../../gns3_copilot_desktop/app.py" line="237" />
        <source>Something went wrong.</source>
        <translation>出错了。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/app.py" line="241" />
        <source>Unexpected error</source>
        <translation>意外错误</translation>
    </message>
</context><context>
    <name>ApprovalCard</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_card.py" line="62" />
        <source>reads only</source>
        <translation>只读</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_card.py" line="63" />
        <source>changes the project</source>
        <translation>修改项目</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_card.py" line="64" />
        <source>configures a device</source>
        <translation>配置设备</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_card.py" line="78" />
        <source>%1?</source>
        <translation>%1？</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_card.py" line="129" />
        <source>Against the running configuration (+ not there yet):</source>
        <translation>与运行配置对比（+ 表示尚未存在）：</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_card.py" line="180" />
        <source>%1 · destructive: %2</source>
        <translation>%1 · 破坏性操作：%2</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_card.py" line="184" />
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_card.py" line="208" />
        <source>Approve %1</source>
        <translation>批准 %1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_card.py" line="211" />
        <source>Reject %1</source>
        <translation>拒绝 %1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_card.py" line="234" />
        <source>Rejected: %1</source>
        <translation>已拒绝：%1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_card.py" line="240" />
        <source>Approved with your edits: %1</source>
        <translation>已按你的修改批准：%1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_card.py" line="247" />
        <source>sent: %1</source>
        <translation>已发送：%1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_card.py" line="251" />
        <source>Approved: %1</source>
        <translation>已批准：%1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_card.py" line="277" />
        <source>Approval needed</source>
        <translation>需要批准</translation>
    </message>
    <message numerus="yes">
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_card.py" line="284" />
        <source>%n changes wait for your decision:</source>
        <translation>
            <numerusform>%n 项更改等待你的决定：</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_card.py" line="301" />
        <source>Approve all</source>
        <translation>全部批准</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_card.py" line="304" />
        <source>Reject all</source>
        <translation>全部拒绝</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_card.py" line="352" />
        <source>%1 approved, %2 rejected</source>
        <translation>已批准 %1 项，已拒绝 %2 项</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_editor.py" line="82" />
        <source>Details</source>
        <translation>详细信息</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_editor.py" line="88" />
        <source>Edit arguments</source>
        <translation>编辑参数</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_editor.py" line="168" />
        <source>configuration lines</source>
        <translation>配置行</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_editor.py" line="170" />
        <source>commands</source>
        <translation>命令</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_editor.py" line="181" />
        <source>%1 for %2, one per line</source>
        <translation>%2 的%1，每行一条</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_editor.py" line="184" />
        <source>Configuration lines</source>
        <translation>配置行</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_editor.py" line="186" />
        <source>Commands</source>
        <translation>命令</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_arguments.py" line="49" />
        <source>Argument %1</source>
        <translation>参数 %1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_arguments.py" line="221" />
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_arguments.py" line="223" />
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_decision.py" line="51" />
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_decision.py" line="45" />
        <source>Approve</source>
        <translation>批准</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_decision.py" line="93" />
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_decision.py" line="54" />
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_decision.py" line="46" />
        <source>Reject</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_decision.py" line="62" />
        <source>Always allow “%1” in this project</source>
        <translation>在此项目中始终允许“%1”</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_decision.py" line="68" />
        <source>Later “%1” calls in this project run without asking.</source>
        <translation>此项目中之后的“%1”操作将直接运行，不再询问。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_decision.py" line="83" />
        <source>Why not? (optional, the assistant sees it)</source>
        <translation>为什么拒绝？（可选，助手会看到）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_decision.py" line="86" />
        <source>Reason for rejecting %1</source>
        <translation>拒绝 %1 的原因</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_decision.py" line="97" />
        <source>Confirm rejecting %1</source>
        <translation>确认拒绝 %1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_decision.py" line="103" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_preview.py" line="103" />
        <source>Edits cannot be checked here: Approve the call as shown or Reject it.</source>
        <translation>此处无法检查修改：请按所示批准该调用，或拒绝它。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_preview.py" line="112" />
        <source>Checking your edits against the lab…</source>
        <translation>正在对照实验拓扑检查你的修改…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_preview.py" line="147" />
        <source>Not possible as edited: %1</source>
        <translation>按修改后的参数无法执行：%1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_preview.py" line="156" />
        <source>Checked against the lab: the card shows your edits.</source>
        <translation>已对照实验拓扑检查：卡片显示的是你修改后的调用。</translation>
    </message>
</context><context>
    <name>ChatController</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/controller.py" line="107" />
        <source>An unexpected error stopped the answer. It was logged.</source>
        <translation>意外错误中断了回答，详情已写入日志。</translation>
    </message>
</context><context>
    <name>ChatPanel</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/toggle.py" line="28" />
        <source>Class</source>
        <translation>课堂</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/toggle.py" line="30" />
        <source>Show the classroom</source>
        <translation>显示课堂</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/toggle.py" line="31" />
        <source>Exams and results of your class</source>
        <translation>本班的考试和成绩</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/import_banner.py" line="19" />
        <source>Imported conversation — read only</source>
        <translation>导入的对话 — 只读</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/import_banner.py" line="23" />
        <source>Continue this conversation</source>
        <translation>继续此对话</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/import_banner.py" line="26" />
        <source>Talk about this conversation: the copilot reads it as quoted text; nothing in it runs</source>
        <translation>就此对话继续交谈：Copilot 将其作为引用的文本阅读；其中的任何内容都不会执行</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/import_banner.py" line="33" />
        <source>Continue this imported conversation</source>
        <translation>继续此导入的对话</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/panel_turns.py" line="128" />
        <source>The assistant is answering.</source>
        <translation>助手正在回答。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../gns3_copilot_desktop/ui/chat/panel_turns.py" line="145" />
        <source>Approval needed for %n tool call(s).</source>
        <translation>
            <numerusform>有 %n 个工具调用需要批准。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/panel_turns.py" line="159" />
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/panel_turns.py" line="168" />
        <source>The answer is complete.</source>
        <translation>回答已完成。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/panel_turns.py" line="171" />
        <source>Stopped.</source>
        <translation>已停止。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/panel.py" line="89" />
        <source>☰ Sessions</source>
        <translation>☰ 会话</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/panel.py" line="92" />
        <source>Show sessions</source>
        <translation>显示会话列表</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/panel.py" line="333" />
        <location filename="../../gns3_copilot_desktop/ui/chat/panel.py" line="94" />
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/panel.py" line="95" />
        <source>Session title</source>
        <translation>会话标题</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/panel.py" line="101" />
        <source>Compact</source>
        <translation>紧凑</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/panel.py" line="104" />
        <source>Compact tool cards</source>
        <translation>紧凑显示工具卡片</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/panel.py" line="107" />
        <source>Hide tool cards behind a count</source>
        <translation>把工具卡片折叠成一个计数</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/panel.py" line="170" />
        <source>Search sessions</source>
        <translation>搜索会话</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/panel.py" line="179" />
        <source>Message box; F1 lists the shortcuts</source>
        <translation>消息框；按 F1 查看快捷键</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/panel.py" line="323" />
        <source>Mode: %1</source>
        <translation>模式：%1</translation>
    </message>
</context><context>
    <name>ClassroomPanel</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/questions.py" line="21" />
        <source>Submit the task?</source>
        <translation>提交这道题？</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/questions.py" line="22" />
        <source>The checks run once and your result is recorded; it cannot change afterwards.</source>
        <translation>检查只运行一次并记录你的成绩；提交后成绩不能再更改。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="77" />
        <location filename="../../gns3_copilot_desktop/ui/classroom/questions.py" line="30" />
        <source>Submit</source>
        <translation>提交</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/questions.py" line="40" />
        <source>Give up this exercise?</source>
        <translation>放弃这道练习？</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/questions.py" line="41" />
        <source>Your lab is put back as it was before the fault, the answer is shown and the exercise scores 0.</source>
        <translation>你的实验会恢复到注入故障之前的样子，并显示答案，本练习记 0 分。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="89" />
        <location filename="../../gns3_copilot_desktop/ui/classroom/questions.py" line="50" />
        <source>Give up</source>
        <translation>放弃</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/questions.py" line="60" />
        <source>Export the results</source>
        <translation>导出成绩</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/actions.py" line="77" />
        <source>Open your lab's project in GNS3 first: the task goes into it.</source>
        <translation>请先在 GNS3 中打开你的实验项目：题目会放进这个项目。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/actions.py" line="84" />
        <source>Starting… the service prepares the task in your lab.</source>
        <translation>正在开始……服务正在你的实验中准备题目。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/actions.py" line="123" />
        <source>Checking your lab…</source>
        <translation>正在检查你的实验……</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/panel.py" line="54" />
        <source>Classroom</source>
        <translation>课堂</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/panel.py" line="59" />
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/panel.py" line="61" />
        <source>Refresh the exams</source>
        <translation>刷新考试列表</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/panel.py" line="67" />
        <source>Exam</source>
        <translation>考试</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/panel.py" line="104" />
        <source>Open the lab in GNS3 first.</source>
        <translation>请先在 GNS3 中打开实验。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/panel.py" line="144" />
        <source>Exams run on your trainer's copilot service. Connect to it in Settings → Copilot service, with your GNS3 account of the class.</source>
        <translation>考试在老师的 Copilot 服务上进行。请在“设置 → Copilot 服务”中连接它，并使用你在本班的 GNS3 账号。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/panel.py" line="171" />
        <source>No exam for you yet.</source>
        <translation>你还没有考试。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/panel.py" line="173" />
        <source>No exam yet: open one on the service (see the README's Classroom).</source>
        <translation>还没有考试：请在服务上创建一场（见 README 的“课堂”一节）。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/panel.py" line="196" />
        <source>Group {group}: {students} students.</source>
        <translation>组 {group}：{students} 名学生。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/panel.py" line="208" />
        <source>Hints: {hints}. The copilot: {copilot}.</source>
        <translation>提示：{hints}。助手：{copilot}。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/panel.py" line="216" />
        <location filename="../../gns3_copilot_desktop/ui/classroom/panel.py" line="211" />
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/panel.py" line="213" />
        <source>on</source>
        <translation>开启</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/panel.py" line="214" />
        <source>Tutor only</source>
        <translation>仅辅导模式</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/panel.py" line="261" />
        <source>Results saved to {path}.</source>
        <translation>成绩已保存到 {path}。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/trainer.py" line="26" />
        <source>Student</source>
        <translation>学生</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/trainer.py" line="27" />
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/trainer.py" line="28" />
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/trainer.py" line="37" />
        <source>Submitted so far</source>
        <translation>已提交人数</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/trainer.py" line="43" />
        <source>Class results</source>
        <translation>全班成绩</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/trainer.py" line="56" />
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/trainer.py" line="59" />
        <source>Export the results as CSV</source>
        <translation>将成绩导出为 CSV</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/trainer.py" line="62" />
        <source>Export JSON…</source>
        <translation>导出 JSON…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/trainer.py" line="65" />
        <source>Export the results as JSON</source>
        <translation>将成绩导出为 JSON</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/trainer.py" line="68" />
        <source>Save this lab as a task…</source>
        <translation>将此实验保存为题目…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/trainer.py" line="71" />
        <source>Make a task from the lab open now</source>
        <translation>用当前打开的实验出一道题</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/trainer.py" line="85" />
        <source>not started</source>
        <translation>未开始</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/trainer.py" line="86" />
        <source>starting</source>
        <translation>正在开始</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/trainer.py" line="87" />
        <source>working</source>
        <translation>作答中</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/trainer.py" line="88" />
        <source>checking</source>
        <translation>正在检查</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/trainer.py" line="89" />
        <source>submitted</source>
        <translation>已提交</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/trainer.py" line="104" />
        <source>{done} of {total} submitted</source>
        <translation>已提交 {done} / {total}</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="35" />
        <source>Time is over</source>
        <translation>时间到</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="36" />
        <source>{minutes} min {seconds} s left</source>
        <translation>剩余 {minutes} 分 {seconds} 秒</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="64" />
        <source>Ticket</source>
        <translation>工单</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="66" />
        <source>Time left</source>
        <translation>剩余时间</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="68" />
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="70" />
        <source>Start the task</source>
        <translation>开始答题</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="72" />
        <source>Hint</source>
        <translation>提示</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="74" />
        <source>Show a hint</source>
        <translation>显示提示</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="80" />
        <source>Submit the task</source>
        <translation>提交答题</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="83" />
        <source>Check my fix</source>
        <translation>检查我的修复</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="86" />
        <source>Check the lab now</source>
        <translation>现在检查实验</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="92" />
        <source>Give up and see the answer</source>
        <translation>放弃并查看答案</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="112" />
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="132" />
        <source>{title} · {points} points · {minutes} min</source>
        <translation>{title} · {points} 分 · {minutes} 分钟</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="157" />
        <source>The exam opens later.</source>
        <translation>考试尚未开始。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="161" />
        <source>The exam is over.</source>
        <translation>考试已结束。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="166" />
        <source>Solved.</source>
        <translation>已解决。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="168" />
        <source>You gave up.</source>
        <translation>你已放弃。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="170" />
        <source>Submitted.</source>
        <translation>已提交。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="177" />
        <source>Score: {score} of {points}</source>
        <translation>得分：{score} / {points}</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="185" />
        <source>The answer:</source>
        <translation>答案：</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="187" />
        <source>Answer (released by your trainer):</source>
        <translation>答案（由你的老师公布）：</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="191" />
        <source>undone with</source>
        <translation>撤销方法：</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/student.py" line="209" />
        <source>Hint {number}:</source>
        <translation>提示 {number}：</translation>
    </message>
</context><context>
    <name>Composer</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/composer.py" line="32" />
        <source>Log in</source>
        <translation>登录</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/composer.py" line="33" />
        <source>Open model settings</source>
        <translation>打开模型设置</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/composer.py" line="84" />
        <source>Message the copilot (Enter sends, Shift+Enter new line)</source>
        <translation>给 Copilot 发消息（Enter 发送，Shift+Enter 换行）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/composer.py" line="88" />
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/composer.py" line="99" />
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/composer.py" line="101" />
        <source>The model that answers</source>
        <translation>用来回答的模型</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/composer.py" line="104" />
        <source>No model configured</source>
        <translation>未配置模型</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/composer.py" line="111" />
        <source>Send</source>
        <translation>发送</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/composer.py" line="112" />
        <source>Send message</source>
        <translation>发送消息</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/composer.py" line="114" />
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/composer.py" line="116" />
        <source>Stop the answer</source>
        <translation>停止回答</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/composer.py" line="118" />
        <source>Stop (Esc)</source>
        <translation>停止 (Esc)</translation>
    </message>
</context><context>
    <name>ConsoleLogins</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/console_logins.py" line="38" />
        <source>Logins the copilot uses on device consoles. Passwords go to the OS keyring, never into the chat or the settings file.</source>
        <translation>Copilot 在设备控制台上使用的登录信息。密码保存在系统密钥环中，绝不会进入聊天或设置文件。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/console_logins.py" line="48" />
        <source>Saved console logins</source>
        <translation>已保存的控制台登录</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/console_logins.py" line="52" />
        <source>Node name, or template:NAME</source>
        <translation>节点名称，或 template:模板名</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/console_logins.py" line="63" />
        <location filename="../../gns3_copilot_desktop/ui/settings/console_logins.py" line="54" />
        <source>Username</source>
        <translation>用户名</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/console_logins.py" line="64" />
        <location filename="../../gns3_copilot_desktop/ui/settings/console_logins.py" line="56" />
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/console_logins.py" line="65" />
        <location filename="../../gns3_copilot_desktop/ui/settings/console_logins.py" line="59" />
        <source>Enable secret</source>
        <translation>Enable 密码</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/console_logins.py" line="62" />
        <source>Applies to</source>
        <translation>适用于</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/console_logins.py" line="67" />
        <source>Add login</source>
        <translation>添加登录</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/console_logins.py" line="70" />
        <source>Save login</source>
        <translation>保存登录</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/console_logins.py" line="73" />
        <source>Remove login</source>
        <translation>删除登录</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/console_logins.py" line="120" />
        <source>Stored in the keyring (unchanged)</source>
        <translation>已保存在密钥环中（未更改）</translation>
    </message>
</context><context>
    <name>CopilotDock</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/dock.py" line="20" />
        <location filename="../../gns3_copilot_desktop/ui/dock.py" line="18" />
        <source>GNS3 Copilot</source>
        <translation>GNS3 Copilot</translation>
    </message>
</context><context>
    <name>CopilotHeader</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/lab_cards.py" line="59" />
        <source>Log in to see your lab.</source>
        <translation>登录后即可查看你的实验。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/lab_cards.py" line="61" />
        <source>Open a project to see its lab.</source>
        <translation>请先打开一个项目以查看其实验。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/model_settings.py" line="108" />
        <source>Connect GNS3 to its server to use the copilot.</source>
        <translation>请先把 GNS3 连接到服务器，再使用 Copilot。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/model_settings.py" line="111" />
        <source>Log in to the GNS3 server to chat with the copilot.</source>
        <translation>登录 GNS3 服务器后即可与 Copilot 对话。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/model_settings.py" line="115" />
        <source>Open a project in GNS3 (or choose one above) to chat about it.</source>
        <translation>在 GNS3 中打开一个项目（或在上方选择），即可围绕它对话。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/model_settings.py" line="181" />
        <source>{model} answers.</source>
        <translation>{model} 有应答。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/model_settings.py" line="182" />
        <source>Calls tools: yes.</source>
        <translation>调用工具：是。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/model_settings.py" line="184" />
        <source>Calls tools: it accepted them but answered in text.</source>
        <translation>调用工具：接受了工具，但以文字作答。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/model_settings.py" line="185" />
        <source>Streams tool calls: yes.</source>
        <translation>流式工具调用：是。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/model_settings.py" line="187" />
        <source>Streams tool calls: no (asked without streaming).</source>
        <translation>流式工具调用：否（改为非流式请求）。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/model_settings.py" line="200" />
        <source>{model} (command line)</source>
        <translation>{model}（命令行）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/model_settings.py" line="207" />
        <source>Context window: {tokens} tokens (read from the server).</source>
        <translation>上下文窗口：{tokens} 个 token（从服务器读取）。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/model_settings.py" line="211" />
        <source>The profile says {tokens}: set it to what the server runs.</source>
        <translation>配置文件中为 {tokens}：请改为服务器实际运行的值。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/model_settings.py" line="216" />
        <source>Context window: {tokens} tokens (the profile's setting; not read from the server).</source>
        <translation>上下文窗口：{tokens} 个 token（配置文件中的设置，未从服务器读取）。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/model_settings.py" line="220" />
        <source>Context window: unknown (the server does not say it; 128,000 tokens assumed).</source>
        <translation>上下文窗口：未知（服务器未提供；按 128,000 个 token 计）。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/undo_actions.py" line="57" />
        <source>Reading the project…</source>
        <translation>正在读取项目…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/undo_actions.py" line="68" />
        <source>Undo the lab plan</source>
        <translation>撤销实验计划</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/undo_actions.py" line="165" />
        <location filename="../../gns3_copilot_desktop/ui/header/undo_actions.py" line="72" />
        <source>Undoing…</source>
        <translation>正在撤销…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/undo_actions.py" line="93" />
        <source>Take a GNS3 snapshot of the project? GNS3 takes one only while nodes are stopped: the devices' running configurations are saved first (write memory, save, commit), then the running nodes stop while the snapshot is taken and start again.</source>
        <translation>要为项目拍摄 GNS3 快照吗？GNS3 只在节点停止时拍摄快照：先保存设备的运行配置（write memory、save、commit），然后运行中的节点在拍摄快照期间停止，之后再次启动。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/undo_actions.py" line="101" />
        <source>These nodes stop for a moment: %1</source>
        <translation>这些节点会短暂停止：%1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/undo_actions.py" line="104" />
        <source>Take a GNS3 snapshot</source>
        <translation>拍摄 GNS3 快照</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/undo_actions.py" line="108" />
        <source>Taking the snapshot…</source>
        <translation>正在拍摄快照…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/undo_actions.py" line="120" />
        <source>Snapshot '%1' taken.</source>
        <translation>已拍摄快照“%1”。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/undo_actions.py" line="124" />
        <source>Not saved first: %1.</source>
        <translation>未能事先保存：%1。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/undo_actions.py" line="158" />
        <source>Restore this configuration</source>
        <translation>恢复此配置</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/undo_actions.py" line="160" />
        <source>Undo this change</source>
        <translation>撤销此更改</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/project_picker.py" line="57" />
        <source>{name} (closed)</source>
        <translation>{name}（已关闭）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/project_picker.py" line="138" />
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/header.py" line="91" />
        <source>GNS3 server and user</source>
        <translation>GNS3 服务器和用户</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/header.py" line="95" />
        <source>Log in</source>
        <translation>登录</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/header.py" line="96" />
        <source>Log in to GNS3</source>
        <translation>登录 GNS3</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/header.py" line="99" />
        <source>Log out</source>
        <translation>退出登录</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/header.py" line="100" />
        <source>Log out of GNS3</source>
        <translation>退出 GNS3 登录</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/header.py" line="108" />
        <location filename="../../gns3_copilot_desktop/ui/header/header.py" line="105" />
        <source>Copilot settings</source>
        <translation>Copilot 设置</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/header.py" line="161" />
        <location filename="../../gns3_copilot_desktop/ui/header/header.py" line="111" />
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/header.py" line="113" />
        <source>The GNS3 project the copilot works on</source>
        <translation>Copilot 当前操作的 GNS3 项目</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/header.py" line="116" />
        <source>No project open</source>
        <translation>未打开项目</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/header.py" line="123" />
        <source>Follow GNS3</source>
        <translation>跟随 GNS3</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/header.py" line="127" />
        <source>Follow the project open in GNS3</source>
        <translation>跟随 GNS3 中打开的项目</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/header.py" line="130" />
        <source>Follow the project open in GNS3; choosing a project by hand pins it</source>
        <translation>跟随 GNS3 中打开的项目；手动选择的项目会被固定</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/header.py" line="136" />
        <source>Lab</source>
        <translation>实验</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/header.py" line="138" />
        <source>Show the lab in the chat</source>
        <translation>在对话中显示实验</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/header.py" line="141" />
        <source>Show the project's topology in the chat, kept up to date</source>
        <translation>在对话中显示项目拓扑，并保持更新</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/header.py" line="149" />
        <source>Connection status</source>
        <translation>连接状态</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/header.py" line="276" />
        <source>{user} @ {server}</source>
        <translation>{user} @ {server}</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/header.py" line="282" />
        <source>Not logged in · {server}</source>
        <translation>未登录 · {server}</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/server_watch.py" line="68" />
        <source>GNS3 closed the project “%1” (closed in GNS3 or by another client). Open it again in GNS3 to go on.</source>
        <translation>GNS3 关闭了项目“%1”（在 GNS3 中或被其他客户端关闭）。请在 GNS3 中重新打开它以继续。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/server_watch.py" line="74" />
        <source>The project “%1” was deleted in GNS3.</source>
        <translation>项目“%1”已在 GNS3 中删除。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/server_watch.py" line="143" />
        <source>Reconnected to GNS3; changes made meanwhile were read again.</source>
        <translation>已重新连接 GNS3；期间的更改已重新读取。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/server_watch.py" line="150" />
        <source>GNS3 unreachable — retrying</source>
        <translation>无法连接 GNS3 — 正在重试</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/login_flow.py" line="160" />
        <source>Your GNS3 login has expired. Log in again to continue.</source>
        <translation>你的 GNS3 登录已过期，请重新登录后继续。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/login_flow.py" line="175" />
        <source>The GNS3 login expired; log in again in GNS3.</source>
        <translation>GNS3 登录已过期，请在 GNS3 中重新登录。</translation>
    </message>
</context><context>
    <name>CopilotServiceTab</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/service_tab.py" line="39" />
        <source>Copilot runs on:</source>
        <translation>Copilot 运行在：</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/service_tab.py" line="40" />
        <source>this computer</source>
        <translation>本计算机</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/service_tab.py" line="42" />
        <source>a copilot service at URL</source>
        <translation>位于以下 URL 的 Copilot 服务</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/service_tab.py" line="45" />
        <source>Copilot runs on this computer</source>
        <translation>Copilot 在本计算机上运行</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/service_tab.py" line="48" />
        <source>Copilot runs on a copilot service</source>
        <translation>Copilot 在 Copilot 服务上运行</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/service_tab.py" line="51" />
        <source>Copilot service URL</source>
        <translation>Copilot 服务 URL</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/service_tab.py" line="55" />
        <source>A service started with 'gns3-copilot serve' on another computer answers with its own model; your GNS3 login is sent with each request.</source>
        <translation>在另一台计算机上用 'gns3-copilot serve' 启动的服务使用它自己的模型回答；每个请求都会附带你的 GNS3 登录信息。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/service_tab.py" line="64" />
        <source>CA file for HTTPS (empty: the system's trusted certificates):</source>
        <translation>HTTPS 的 CA 文件（留空：使用系统信任的证书）：</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/service_tab.py" line="72" />
        <source>Copilot service CA file</source>
        <translation>Copilot 服务的 CA 文件</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/service_tab.py" line="75" />
        <source>Choose...</source>
        <translation>选择...</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/service_tab.py" line="78" />
        <source>Choose the copilot service's CA file</source>
        <translation>选择 Copilot 服务的 CA 文件</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/service_tab.py" line="83" />
        <source>Copilot service problem</source>
        <translation>Copilot 服务问题</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/service_tab.py" line="115" />
        <source>CA file of the copilot service</source>
        <translation>Copilot 服务的 CA 文件</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/service_tab.py" line="117" />
        <source>Certificates (*.pem *.crt)</source>
        <translation>证书 (*.pem *.crt)</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/service_tab.py" line="133" />
        <source>Enter the http:// or https:// address of the copilot service; until then the copilot runs on this computer.</source>
        <translation>请输入 Copilot 服务的 http:// 或 https:// 地址；在此之前 Copilot 在本计算机上运行。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/service_tab.py" line="140" />
        <source>The CA file does not exist: the copilot service cannot be trusted until it does.</source>
        <translation>CA 文件不存在：在它存在之前无法信任 Copilot 服务。</translation>
    </message>
</context><context>
    <name>CoreText</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="19" />
        <source>The model's context window (%1 tokens) is too small for all %2 tools (about %3 tokens) and this conversation, so only the tools that read the lab were offered. For changes, raise the context window in the model settings (and on the model's server) or shorten the answer limit.</source>
        <translation>模型的上下文窗口（%1 个 token）不足以容纳全部 %2 个工具（约 %3 个 token）和本次对话，因此只提供了读取实验的工具。如需修改实验，请在模型设置（以及模型服务器）中增大上下文窗口，或缩短回答长度上限。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="31" />
        <source>The model's context window (%1 tokens) is too small for any tool and this conversation, so it answered without tools. Raise the context window in the model settings (and on the model's server), or start a new conversation.</source>
        <translation>模型的上下文窗口（%1 个 token）不足以容纳任何工具和本次对话，因此它在没有工具的情况下作答。请在模型设置（以及模型服务器）中增大上下文窗口，或开始新的对话。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="44" />
        <source>The authentication with %1 expired or is invalid (%2). Please log in again.</source>
        <translation>与 %1 的认证已过期或无效（%2）。请重新登录。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="51" />
        <source>%1 refused the login for '%2': %3</source>
        <translation>%1 拒绝了“%2”的登录：%3</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="55" />
        <source>%1 failed to handle the request (HTTP %2): %3</source>
        <translation>%1 未能处理该请求（HTTP %2）：%3</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="59" />
        <source>Could not connect to %1: no answer within %2 s (timed out).</source>
        <translation>无法连接到 %1：%2 秒内无应答（超时）。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="65" />
        <source>%1 did not answer within %2 s (timed out).</source>
        <translation>%1 在 %2 秒内没有应答（超时）。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="70" />
        <source>The TLS connection to %1 failed: %2. If the server uses a self-signed certificate, set its CA certificate file in the server settings.</source>
        <translation>与 %1 的 TLS 连接失败：%2。如果服务器使用自签名证书，请在服务器设置中指定其 CA 证书文件。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="78" />
        <source>The host name of %1 could not be resolved (DNS): check the address.</source>
        <translation>无法解析 %1 的主机名（DNS）：请检查地址。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="85" />
        <source>%1 refused the connection: is the GNS3 server running and listening on that address and port?</source>
        <translation>%1 拒绝了连接：GNS3 服务器是否正在运行并监听该地址和端口？</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="93" />
        <source>Could not connect to %1: %2</source>
        <translation>无法连接到 %1：%2</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="97" />
        <source>The connection to %1 broke off: %2</source>
        <translation>与 %1 的连接中断：%2</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="99" />
        <source>Talking to %1 failed: %2</source>
        <translation>与 %1 通信失败：%2</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="108" />
        <source>No language model is configured. Add a model in Settings, or set OPENAI_API_KEY, ANTHROPIC_API_KEY, DEEPSEEK_API_KEY or OLLAMA_HOST (with GNS3_COPILOT_MODEL).</source>
        <translation>尚未配置语言模型。请在“设置”中添加模型，或设置 OPENAI_API_KEY、ANTHROPIC_API_KEY、DEEPSEEK_API_KEY 或 OLLAMA_HOST（配合 GNS3_COPILOT_MODEL）。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="116" />
        <source>The model %1 needs an API key: enter it in the model settings or set %2.</source>
        <translation>模型 %1 需要 API 密钥：请在模型设置中填写，或设置 %2。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="122" />
        <source>The model %1 needs an API key: enter it in the model settings.</source>
        <translation>模型 %1 需要 API 密钥：请在模型设置中填写。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="128" />
        <source>The model profile %1 has no API key: enter it in the model settings.</source>
        <translation>模型配置 %1 没有 API 密钥：请在模型设置中填写。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="134" />
        <source>The model %1 needs a base URL (e.g. %2).</source>
        <translation>模型 %1 需要基础 URL（例如 %2）。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="138" />
        <source>The model %1 cannot be used: %2</source>
        <translation>无法使用模型 %1：%2</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="142" />
        <source>The model %1 could not be built.</source>
        <translation>无法创建模型 %1。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="147" />
        <source>The model %1 does not accept tool calls (%2). Choose a model that supports tools (function calling).</source>
        <translation>模型 %1 不支持工具调用（%2）。请选择支持工具（函数调用）的模型。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="155" />
        <source>The model %1 does not accept tool calls.</source>
        <translation>模型 %1 不支持工具调用。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="160" />
        <source>OLLAMA_HOST is set but no model is chosen: set GNS3_COPILOT_MODEL=ollama:&lt;model&gt; (e.g. ollama:llama3.1:8b).</source>
        <translation>已设置 OLLAMA_HOST，但未选择模型：请设置 GNS3_COPILOT_MODEL=ollama:&lt;模型&gt;（例如 ollama:llama3.1:8b）。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="169" />
        <source>GNS3_COPILOT_MODEL=%1 does not name a provider: write it as provider:model, with provider one of %2.</source>
        <translation>GNS3_COPILOT_MODEL=%1 未指明提供商：请写成 提供商:模型，提供商为以下之一：%2。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="175" />
        <source>In %1: %2.</source>
        <translation>在%1中：%2。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="184" />
        <source>The model server could not read the request (HTTP %1); retrying will not help. It is probably not fully OpenAI-compatible: check the server kind in the model settings.</source>
        <translation>模型服务器无法读取请求（HTTP %1）；重试没有用。它可能不完全兼容 OpenAI：请在模型设置中检查服务器类型。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="193" />
        <source>The model provider sent a malformed answer (not valid JSON). Try again; if it persists, the endpoint is not fully OpenAI-compatible.</source>
        <translation>模型服务商返回了格式错误的回答（不是有效的 JSON）。请重试；如果仍然出现，说明该端点不完全兼容 OpenAI。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="201" />
        <source>The answer was cut off: the model provider closed the stream before it finished.</source>
        <translation>回答被中断：模型服务商在完成前关闭了数据流。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="209" />
        <source>The model provider did not answer in time. Try again, or raise the timeout in the model settings.</source>
        <translation>模型服务商没有及时回答。请重试，或在模型设置中增大超时时间。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="218" />
        <source>The model server stopped (%1 no longer answers). It may have crashed: see its log, start it again, then retry.</source>
        <translation>模型服务器已停止（%1 不再响应）。它可能已崩溃：请查看其日志，重新启动后再试。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="227" />
        <source>The model server is not running (%1 does not answer). Start it, then retry, or check the base URL in the model settings.</source>
        <translation>模型服务器未运行（%1 无响应）。请启动它后再试，或检查模型设置中的基础 URL。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="235" />
        <source>Could not reach the model provider (%1). Check the base URL and the network.</source>
        <translation>无法连接模型服务商（%1）。请检查 Base URL 和网络。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="242" />
        <source>The model provider rejected the API key (%1). Check the key in the model settings.</source>
        <translation>模型服务商拒绝了 API 密钥（%1）。请在模型设置中检查密钥。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="249" />
        <source>The model provider's rate limit or quota was reached (%1). Try again in %2 s.</source>
        <translation>已达到模型服务商的速率限制或配额（%1）。请在 %2 秒后重试。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="256" />
        <source>The model provider's rate limit or quota was reached (%1). Try again in a moment.</source>
        <translation>已达到模型服务商的速率限制或配额（%1）。请稍后重试。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="263" />
        <source>The model provider timed out (%1).</source>
        <translation>模型服务商超时（%1）。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="267" />
        <source>The model provider refused the request (%1).</source>
        <translation>模型服务商拒绝了请求（%1）。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="271" />
        <source>The model provider had an internal error (%1). Try again.</source>
        <translation>模型服务商发生内部错误（%1）。请重试。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="275" />
        <source>The model provider failed: %1</source>
        <translation>模型服务商出错：%1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="279" />
        <source>Something went wrong in the copilot; the details are in the log file.</source>
        <translation>Copilot 出了问题；详细信息在日志文件中。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="286" />
        <source>Another GNS3 Copilot (on %1) is answering in this conversation right now. Wait for it to finish, or start a new conversation; nothing was sent.</source>
        <translation>另一个 GNS3 Copilot（位于 %1）正在这个对话中回答。请等它完成，或开始新的对话；消息没有发送。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="295" />
        <source>Nothing in this conversation is waiting for a decision any more (a new message was sent or the turn ended): nothing was run.</source>
        <translation>这个对话中已没有等待决定的调用（已发送新消息或本轮已结束）：没有运行任何操作。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="304" />
        <source>The conversations of this project could not be read; the file was kept as %1 and a new one started.</source>
        <translation>无法读取此项目的对话；原文件已保留为 %1，并已新建一个。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/notices.py" line="314" />
        <source>This project came with conversations from another computer. They are not opened as conversations of yours (a shared file could make the app run something); this computer keeps its own beside them.</source>
        <translation>此项目带有来自另一台计算机的对话。它们不会作为你的对话打开（共享的文件可能让应用运行某些内容）；本计算机会在旁边保存自己的对话。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="66" />
        <location filename="../../gns3_copilot_desktop/ui/core_text/__init__.py" line="43" />
        <source>List projects</source>
        <translation>列出项目</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/__init__.py" line="93" />
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="16" />
        <source>inject %1 %2 fault on %3 device</source>
        <translation>在 %3 台设备上注入 %1 个%2故障</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="20" />
        <source>inject %1 %2 faults on %3 device</source>
        <translation>在 %3 台设备上注入 %1 个%2故障</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="24" />
        <source>inject %1 %2 fault on %3 devices</source>
        <translation>在 %3 台设备上注入 %1 个%2故障</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="28" />
        <source>inject %1 %2 faults on %3 devices</source>
        <translation>在 %3 台设备上注入 %1 个%2故障</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="36" />
        <source>The faults are injected into the running lab by their own steps (device consoles, the GNS3 link settings) and saved where the device keeps a startup configuration; no node is stopped. The exercise starts once each fault is confirmed; if one cannot be, everything injected is undone. Giving up runs the faults' undo steps. What is injected stays sealed until the exercise ends.</source>
        <translation>故障按各自的步骤注入正在运行的实验(设备控制台、GNS3 链路设置),并保存到设备的启动配置中(如有);不会停止任何节点。每个故障都确认生效后练习才开始;若有一个无法确认,已注入的全部撤销。放弃时运行各故障的撤销步骤。练习结束前,注入的内容保持密封。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="48" />
        <source>Each fault's own undo steps run (shown above); nothing else in the lab changes and no node is stopped. A device or link you removed meanwhile is left as it is.</source>
        <translation>运行每个故障自己的撤销步骤(见上);实验中其他内容不变,也不会停止任何节点。期间你删除的设备或链路保持原样。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="56" />
        <source>undo the exercise's faults on %1</source>
        <translation>撤销练习在 %1 上的故障</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="61" />
        <source>Could not inject “%1” on %2: %3. Nothing was started and the lab is as it was.</source>
        <translation>无法在 %2 上注入“%1”:%3。练习未开始,实验保持原样。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="68" />
        <source>the lab changed: the link %1 is no longer in it</source>
        <translation>实验已改变:链路 %1 已不存在</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="72" />
        <source>the lab changed: the link %1 is gone</source>
        <translation>实验已改变:链路 %1 已被删除</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="76" />
        <source>the lab changed: %1 is no longer in it</source>
        <translation>实验已改变:%1 已不存在</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="80" />
        <source>the lab changed: %1 was replaced by another node</source>
        <translation>实验已改变:%1 已被另一个节点取代</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="84" />
        <source>the lab changed: %1 is not running</source>
        <translation>实验已改变:%1 未在运行</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="88" />
        <source>%1 does not answer on its console</source>
        <translation>%1 的控制台没有响应</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="92" />
        <source>the link %1 is no longer in the lab</source>
        <translation>链路 %1 已不在实验中</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="96" />
        <source>%1 is not running, so it was left as it is</source>
        <translation>%1 未在运行,因此保持原样</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="101" />
        <source>This exercise was sealed by another installation of GNS3 Copilot (or its keyring was reset): its answer cannot be read here.</source>
        <translation>此练习由另一个 GNS3 Copilot 安装密封(或其密钥环已被重置):此处无法读取其答案。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="109" />
        <source>Only an ended exercise can be undone.</source>
        <translation>只能撤销已结束的练习。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="113" />
        <source>The rehearsal of the exercise left: %1.</source>
        <translation>练习预演后遗留:%1。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="117" />
        <source>Choose a passphrase of at least %1 characters.</source>
        <translation>请选择至少 %1 个字符的口令。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="121" />
        <source>This file is not an exercise exported by GNS3 Copilot.</source>
        <translation>此文件不是 GNS3 Copilot 导出的练习。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="125" />
        <source>This exercise file was made by another version of GNS3 Copilot.</source>
        <translation>此练习文件由另一版本的 GNS3 Copilot 生成。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="131" />
        <source>The passphrase is wrong, or the file was changed.</source>
        <translation>口令错误，或文件已被改动。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="135" />
        <source>This exercise file names an unknown level.</source>
        <translation>此练习文件指定了未知的难度。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="139" />
        <source>This exercise needs the fault %1, which this version of GNS3 Copilot does not have.</source>
        <translation>此练习需要故障 %1，而此版本的 GNS3 Copilot 没有该故障。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="146" />
        <source>The lab is stopped (%1): start the lab, then the exercise.</source>
        <translation>实验已停止（%1）：请先启动实验，再开始练习。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="150" />
        <source>No imported exercise waits in this project.</source>
        <translation>此项目中没有待开始的导入练习。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="155" />
        <source>The imported lab is not the trainer's any more (a fault's device or link is missing): import the exercise again.</source>
        <translation>导入的实验已与讲师的不同（某个故障所在的设备或链路不见了）：请重新导入练习。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="164" />
        <source>The lab does not work yet, so the exercise could not be checked: %1. Start its nodes and try again.</source>
        <translation>实验尚未正常工作，无法检查练习：%1。请启动其节点后重试。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="173" />
        <source>The lab does not work yet, so an exercise could not be checked: %1. Make it work first.</source>
        <translation>实验尚未正常工作，无法检查练习：%1。请先让它正常工作。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="181" />
        <source>GNS3 did not export the project as a zip archive.</source>
        <translation>GNS3 没有将项目导出为 zip 压缩包。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="185" />
        <source>The project is too large to export here.</source>
        <translation>项目太大，无法在此导出。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="191" />
        <source>This exercise is signed by a different key than %1's pinned key (fingerprint %2, pinned %3). It was not imported.</source>
        <translation>此练习由与 %1 已固定的密钥不同的密钥签名（指纹 %2，已固定 %3）。未导入。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="200" />
        <source>The signature of this exercise does not match: the file was changed after %1 signed it, or it was forged.</source>
        <translation>此练习的签名不匹配：文件在 %1 签名后被修改，或是伪造的。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="209" />
        <source>This exercise file is of the older, unsigned format, which anyone with the class passphrase could have made. Ask your trainer to export it again.</source>
        <translation>此练习文件是旧的未签名格式，任何知道班级口令的人都能制作。请让培训师重新导出。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="217" />
        <source>This exercise file is not signed by a trainer.</source>
        <translation>此练习文件没有培训师的签名。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="221" />
        <source>The project archive was refused: the entry “%1” %2. Nothing was imported.</source>
        <translation>项目归档被拒绝：条目“%1”%2。未导入任何内容。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/practice.py" line="229" />
        <source>The project archive has %1 entries; at most %2 are imported. Nothing was imported.</source>
        <translation>项目归档有 %1 个条目；最多导入 %2 个。未导入任何内容。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="15" />
        <source>(matched by name: %1)</source>
        <translation>（按名称匹配：%1）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="18" />
        <source>(matched by name and ports)</source>
        <translation>（按名称和端口匹配）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="20" />
        <source>all nodes</source>
        <translation>所有节点</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="21" />
        <source>beginner</source>
        <translation>初级</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="22" />
        <source>intermediate</source>
        <translation>中级</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="23" />
        <source>advanced</source>
        <translation>高级</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="24" />
        <source>(+%1 lines)</source>
        <translation>（另 %1 行）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="25" />
        <source>new node</source>
        <translation>新节点</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="26" />
        <source> and its 1 link</source>
        <translation> 及其 1 条链路</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="27" />
        <source> and its %1 links</source>
        <translation> 及其 %1 条链路</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="28" />
        <source>(no links)</source>
        <translation>（无链路）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="29" />
        <source>, now running</source>
        <translation>，正在运行</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="30" />
        <source>, now suspended</source>
        <translation>，已暂停</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="31" />
        <source>same</source>
        <translation>不变</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="32" />
        <source>(free port)</source>
        <translation>（空闲端口）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="33" />
        <source>%1 node(s)</source>
        <translation>%1 个节点</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="34" />
        <source>%1 link(s)</source>
        <translation>%1 条链路</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="35" />
        <source>%1 device(s)</source>
        <translation>%1 台设备</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="36" />
        <source>the link at %1</source>
        <translation>%1 上的链路</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="40" />
        <source>nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="41" />
        <source>node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="42" />
        <source>template</source>
        <translation>模板</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="43" />
        <source>templates</source>
        <translation>模板</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="44" />
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="45" />
        <source>new name</source>
        <translation>新名称</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="46" />
        <source>links</source>
        <translation>链路</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="47" />
        <source>link</source>
        <translation>链路</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="48" />
        <source>node A</source>
        <translation>节点 A</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="49" />
        <source>node B</source>
        <translation>节点 B</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="50" />
        <source>port A</source>
        <translation>端口 A</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="51" />
        <source>port B</source>
        <translation>端口 B</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="52" />
        <source>devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="53" />
        <source>configuration lines</source>
        <translation>配置行</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="54" />
        <source>commands</source>
        <translation>命令</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="55" />
        <source>timeout (s)</source>
        <translation>超时（秒）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="56" />
        <source>command timeout (s)</source>
        <translation>命令超时（秒）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="57" />
        <source>saved login</source>
        <translation>已保存的登录</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="58" />
        <source>x</source>
        <translation>x</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="59" />
        <source>y</source>
        <translation>y</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="60" />
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="61" />
        <source>wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="62" />
        <source>text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/arguments.py" line="63" />
        <source>colour</source>
        <translation>颜色</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="16" />
        <source>remove node %1 and its %2 link(s)</source>
        <translation>删除节点 %1 及其 %2 条链路</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="18" />
        <source>remove node %1</source>
        <translation>删除节点 %1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="21" />
        <source>bring back node %1 (%2) at (%3, %4) with %5</source>
        <translation>在 (%3, %4) 恢复节点 %1（%2），并带回 %5</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="25" />
        <source>bring back node %1 (%2) at (%3, %4)</source>
        <translation>在 (%3, %4) 恢复节点 %1（%2）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="27" />
        <source>bring back link %1</source>
        <translation>恢复链路 %1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="28" />
        <source>rename %1 back to %2</source>
        <translation>将 %1 改回名称 %2</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="31" />
        <source>move %1 back to (%2, %3)</source>
        <translation>将 %1 移回 (%2, %3)</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="33" />
        <source>remove link %1</source>
        <translation>删除链路 %1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="34" />
        <source>remove the note '%1'</source>
        <translation>删除注释“%1”</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="37" />
        <source>push back %1 line(s) to %2</source>
        <translation>向 %2 推回 %1 行配置</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="40" />
        <source>%1 goes with its 1 link:</source>
        <translation>%1 及其 1 条链路将被删除：</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="43" />
        <source>%1 goes with its %2 links:</source>
        <translation>%1 及其 %2 条链路将被删除：</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="45" />
        <source>%1 has no links</source>
        <translation>%1 没有链路</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="46" />
        <source>%1 is running now</source>
        <translation>%1 正在运行</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="47" />
        <source>%1 is suspended now</source>
        <translation>%1 已暂停</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="48" />
        <source>%1 is already gone</source>
        <translation>%1 已不存在</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="49" />
        <source>%1 is back already</source>
        <translation>%1 已经恢复</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="50" />
        <source>%1 is as it was already</source>
        <translation>%1 已是原来的状态</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="51" />
        <source>a node named %1 exists now</source>
        <translation>现在已有名为 %1 的节点</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="54" />
        <source>%1: the name %2 is taken now</source>
        <translation>%1：名称 %2 现已被占用</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="58" />
        <source>%1: %2 is not in the project</source>
        <translation>%1：%2 不在项目中</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="60" />
        <source>%1: %2 is in use</source>
        <translation>%1：%2 正在使用中</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="61" />
        <source>%1: not put back: %2</source>
        <translation>%1：未恢复：%2</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="64" />
        <source>%1: its console cannot be reached from here</source>
        <translation>%1：从这里无法连接其控制台</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="69" />
        <source>Read the topology of the current project</source>
        <translation>读取当前项目的拓扑</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="71" />
        <source>List templates matching %1</source>
        <translation>列出匹配 %1 的模板</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="72" />
        <source>List templates</source>
        <translation>列出模板</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="73" />
        <source>start capture on %1</source>
        <translation>开始在 %1 上抓包</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="74" />
        <source>stop capture on %1</source>
        <translation>停止在 %1 上抓包</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="75" />
        <source>summarize capture of %1</source>
        <translation>汇总 %1 的抓包</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="76" />
        <source>create %1</source>
        <translation>新建 %1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="79" />
        <source>delete %1 and their links</source>
        <translation>删除 %1 及其链路</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="81" />
        <source>create link %1</source>
        <translation>新建链路 %1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="82" />
        <source>delete link %1</source>
        <translation>删除链路 %1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="85" />
        <source>start %1 and wait up to %2 s</source>
        <translation>启动 %1 并最多等待 %2 秒</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="89" />
        <source>stop %1 and wait up to %2 s</source>
        <translation>停止 %1 并最多等待 %2 秒</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="93" />
        <source>suspend %1 and wait up to %2 s</source>
        <translation>暂停 %1 并最多等待 %2 秒</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="97" />
        <source>reload %1 and wait up to %2 s</source>
        <translation>重新加载 %1 并最多等待 %2 秒</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="99" />
        <source>start %1</source>
        <translation>启动 %1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="100" />
        <source>stop %1</source>
        <translation>停止 %1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="101" />
        <source>suspend %1</source>
        <translation>暂停 %1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="102" />
        <source>reload %1</source>
        <translation>重新加载 %1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="103" />
        <source>run on %1</source>
        <translation>在设备上运行：%1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="104" />
        <source>configure %1</source>
        <translation>配置 %1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="105" />
        <source>details of %1</source>
        <translation>%1 的详细信息</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="106" />
        <source>links of the project</source>
        <translation>项目的链路</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="107" />
        <source>links of %1</source>
        <translation>%1 的链路</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="108" />
        <source>project statistics</source>
        <translation>项目统计</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="109" />
        <source>list snapshots</source>
        <translation>列出快照</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="110" />
        <source>template details of %1</source>
        <translation>模板 %1 的详细信息</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="111" />
        <source>create snapshot '%1'</source>
        <translation>创建快照“%1”</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="114" />
        <source>restore snapshot '%1' (replaces the current topology)</source>
        <translation>恢复快照“%1”（替换当前拓扑）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="116" />
        <source>add note "%1"</source>
        <translation>添加注释“%1”</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="117" />
        <source>rename %1 to %2</source>
        <translation>将 %1 重命名为 %2</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="118" />
        <source>move %1 to (%2)</source>
        <translation>将 %1 移动到 (%2)</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="120" />
        <source>deletes %1</source>
        <translation>将删除 %1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="123" />
        <source>%1 running: unsaved configuration on them is lost</source>
        <translation>%1 正在运行：其未保存的配置将丢失</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="127" />
        <source>%1 running: their consoles and traffic are paused</source>
        <translation>%1 正在运行：其控制台和流量将被暂停</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="131" />
        <source>none of these nodes is running</source>
        <translation>这些节点都未在运行</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="136" />
        <source>replaces the current %1 node(s) and %2 link(s); every later change is lost</source>
        <translation>将替换当前的 %1 个节点和 %2 条链路；之后的所有更改都会丢失</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="142" />
        <source>%1: %2 new line(s), %3 already there</source>
        <translation>%1：%2 行新配置，%3 行已存在</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="146" />
        <source>%1: running configuration not read (%2)</source>
        <translation>%1：未读取运行配置（%2）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="154" />
        <source>plan a lab of %1 nodes and %2 links</source>
        <translation>规划一个包含 %1 个节点和 %2 条链路的实验</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="156" />
        <source>nothing to change</source>
        <translation>无需更改</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="157" />
        <source>%1 started</source>
        <translation>%1 已启动</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="158" />
        <source>%1 pings %2</source>
        <translation>%1 可 ping 通 %2</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="159" />
        <source>add %1</source>
        <translation>添加 %1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/tools.py" line="160" />
        <source>remove %1</source>
        <translation>移除 %1</translation>
    </message>
</context><context>
    <name>LabDrawing</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/drawing_paint.py" line="175" />
        <location filename="../../gns3_copilot_desktop/ui/lab/drawing_parts.py" line="327" />
        <source>suspended</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/drawing_parts.py" line="329" />
        <source>filtered</source>
        <translation>已过滤</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/drawing_paint.py" line="50" />
        <location filename="../../gns3_copilot_desktop/ui/lab/drawing_parts.py" line="353" />
        <source>The lab is empty.</source>
        <translation>实验为空。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/drawing_parts.py" line="355" />
        <source>%1 nodes, %2 links.</source>
        <translation>%1 个节点，%2 条链路。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/drawing_parts.py" line="360" />
        <source>New: %1.</source>
        <translation>新增：%1。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/drawing_parts.py" line="361" />
        <source>Removed: %1.</source>
        <translation>移除：%1。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/drawing_parts.py" line="369" />
        <source>New links: %1.</source>
        <translation>新增链路：%1。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/drawing_parts.py" line="378" />
        <source>Nodes: %1.</source>
        <translation>节点：%1。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/drawing_parts.py" line="383" />
        <source>Links: %1.</source>
        <translation>链路：%1。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/drawing.py" line="63" />
        <source>Lab drawing</source>
        <translation>实验拓扑图</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/drawing_paint.py" line="163" />
        <source>new</source>
        <translation>新增</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/drawing_paint.py" line="164" />
        <source>removed</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/drawing_paint.py" line="165" />
        <source>changed</source>
        <translation>已更改</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/drawing_paint.py" line="170" />
        <source>unchanged</source>
        <translation>不变</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/drawing_paint.py" line="173" />
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/drawing_paint.py" line="174" />
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/drawing_paint.py" line="181" />
        <source>suspended link</source>
        <translation>已挂起的链路</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/drawing_paint.py" line="185" />
        <source>filtered link</source>
        <translation>有过滤的链路</translation>
    </message>
</context><context>
    <name>LoginDialog</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/login_dialog.py" line="82" />
        <location filename="../../gns3_copilot_desktop/ui/header/login_dialog.py" line="81" />
        <source>Log in to GNS3</source>
        <translation>登录 GNS3</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/login_dialog.py" line="88" />
        <source>No keyring is available on this computer, so the login cannot be remembered: you will log in again next time.</source>
        <translation>本计算机上没有可用的密钥环，因此无法记住登录：下次需要重新登录。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/login_dialog.py" line="110" />
        <source>GNS3 server URL</source>
        <translation>GNS3 服务器地址</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/login_dialog.py" line="151" />
        <location filename="../../gns3_copilot_desktop/ui/header/login_dialog.py" line="112" />
        <source>Username</source>
        <translation>用户名</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/login_dialog.py" line="152" />
        <location filename="../../gns3_copilot_desktop/ui/header/login_dialog.py" line="113" />
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/login_dialog.py" line="116" />
        <source>Remember me (keeps the login token in the OS keyring)</source>
        <translation>记住我（登录令牌保存在系统密钥环中）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/login_dialog.py" line="122" />
        <source>Remember me</source>
        <translation>记住我</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/login_dialog.py" line="127" />
        <source>Login status</source>
        <translation>登录状态</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/login_dialog.py" line="133" />
        <location filename="../../gns3_copilot_desktop/ui/header/login_dialog.py" line="130" />
        <source>Start a local GNS3 server</source>
        <translation>启动本地 GNS3 服务器</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/login_dialog.py" line="144" />
        <location filename="../../gns3_copilot_desktop/ui/header/login_dialog.py" line="143" />
        <source>Log in</source>
        <translation>登录</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/login_dialog.py" line="150" />
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/login_dialog.py" line="180" />
        <source>Enter a username and a password.</source>
        <translation>请输入用户名和密码。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/login_dialog.py" line="208" />
        <source>Starting the local GNS3 server…</source>
        <translation>正在启动本地 GNS3 服务器…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/login_dialog.py" line="220" />
        <source>The local GNS3 server is running. Log in.</source>
        <translation>本地 GNS3 服务器已在运行，请登录。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/header/login_dialog.py" line="232" />
        <source>Logging in…</source>
        <translation>正在登录…</translation>
    </message>
</context><context>
    <name>MessageView</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/messages.py" line="40" />
        <source>You wrote</source>
        <translation>你的消息</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/messages.py" line="89" />
        <source>The answer failed.</source>
        <translation>回答失败。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/messages.py" line="96" />
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/messages.py" line="98" />
        <source>Retry the last message</source>
        <translation>重新发送上一条消息</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/messages.py" line="105" />
        <source>Open model settings</source>
        <translation>打开模型设置</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/messages.py" line="110" />
        <source>Log in</source>
        <translation>登录</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/messages.py" line="123" />
        <source>Details</source>
        <translation>详细信息</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/messages.py" line="126" />
        <source>Show the provider's own message</source>
        <translation>显示服务商的原始消息</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/messages.py" line="140" />
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/messages.py" line="151" />
        <source>A newer message was sent since.</source>
        <translation>之后已发送了更新的消息。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/messages.py" line="169" />
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/messages.py" line="216" />
        <source>Stopped before the end</source>
        <translation>已在结束前停止</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/messages.py" line="218" />
        <source>Cut off: the model's answer ended early</source>
        <translation>已中断：模型的回答提前结束</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/message_view.py" line="49" />
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/message_view.py" line="62" />
        <location filename="../../gns3_copilot_desktop/ui/chat/message_view.py" line="59" />
        <source>Show earlier messages</source>
        <translation>显示更早的消息</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/message_view.py" line="132" />
        <location filename="../../gns3_copilot_desktop/ui/chat/message_view.py" line="82" />
        <source>Ask about your GNS3 project, or ask the assistant to build it.</source>
        <translation>可以询问你的 GNS3 项目，也可以让助手帮你搭建拓扑。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/message_view.py" line="88" />
        <source>↓ Jump to latest</source>
        <translation>↓ 跳到最新</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/message_view.py" line="90" />
        <source>Jump to the latest message</source>
        <translation>跳到最新消息</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/message_view.py" line="140" />
        <source>Log in to the GNS3 server</source>
        <translation>登录 GNS3 服务器</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/message_view.py" line="143" />
        <source>Add a model</source>
        <translation>添加模型</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/message_view.py" line="146" />
        <source>Open a project in GNS3 (or choose one above)</source>
        <translation>在 GNS3 中打开项目（或在上方选择一个）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/message_view.py" line="159" />
        <source>To start:</source>
        <translation>开始前：</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/message_view.py" line="248" />
        <source>Note: %1</source>
        <translation>说明：%1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/view_cards.py" line="28" />
        <source>Not run: you sent a new message</source>
        <translation>未运行：你发送了新消息</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/text_blocks.py" line="118" />
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/text_blocks.py" line="177" />
        <source>code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/text_blocks.py" line="180" />
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/text_blocks.py" line="181" />
        <source>Copy code</source>
        <translation>复制代码</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/text_blocks.py" line="235" />
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
</context><context>
    <name>NodeLinks</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/node_links.py" line="157" />
        <source>Open console</source>
        <translation>打开控制台</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/node_links.py" line="165" />
        <source>Show in GNS3</source>
        <translation>在 GNS3 中显示</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/node_links.py" line="187" />
        <source>%1 is not running.</source>
        <translation>%1 未在运行。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/node_links.py" line="190" />
        <source>%1 has no telnet console.</source>
        <translation>%1 没有 telnet 控制台。</translation>
    </message>
</context><context>
    <name>PlanView</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="117" />
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="66" />
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="45" />
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="118" />
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="46" />
        <source>Template</source>
        <translation>模板</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="47" />
        <source>X</source>
        <translation>X</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="48" />
        <source>Y</source>
        <translation>Y</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="49" />
        <source>Platform</source>
        <translation>平台</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="50" />
        <source>OSPF</source>
        <translation>OSPF</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="56" />
        <source>Node A</source>
        <translation>节点 A</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="57" />
        <source>Port A</source>
        <translation>端口 A</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="58" />
        <source>Node B</source>
        <translation>节点 B</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="59" />
        <source>Port B</source>
        <translation>端口 B</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="127" />
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="60" />
        <source>Subnet</source>
        <translation>子网</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="67" />
        <source>Prefix</source>
        <translation>前缀</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="138" />
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="77" />
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="68" />
        <source>Gateway</source>
        <translation>网关</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="135" />
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="74" />
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="136" />
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="75" />
        <source>Interface</source>
        <translation>接口</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="137" />
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="76" />
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="115" />
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="122" />
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="125" />
        <source>Add node</source>
        <translation>添加节点</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="126" />
        <source>Remove node</source>
        <translation>删除节点</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="124" />
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="130" />
        <source>Links</source>
        <translation>链路</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="133" />
        <source>Add link</source>
        <translation>添加链路</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="135" />
        <source>Remove link</source>
        <translation>删除链路</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="145" />
        <source>Subnets</source>
        <translation>子网</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="149" />
        <source>Add subnet</source>
        <translation>添加子网</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="153" />
        <source>Remove subnet</source>
        <translation>删除子网</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="133" />
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="161" />
        <source>Addressing</source>
        <translation>地址规划</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="165" />
        <source>Add address</source>
        <translation>添加地址</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="169" />
        <source>Remove address</source>
        <translation>删除地址</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="177" />
        <source>Undo remove</source>
        <translation>撤销删除</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="179" />
        <source>Put back the rows removed last (Ctrl+Z)</source>
        <translation>恢复最近删除的行（Ctrl+Z）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="206" />
        <source>The drawing shows the plan as proposed. When you approve, your edits are checked against the project and compared with it again before anything changes.</source>
        <translation>上图显示的是原始计划。批准后，会先根据项目重新检查并比较你的修改，然后才做任何更改。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="361" />
        <source>%1, row %2, %3</source>
        <translation>%1，第 %2 行，%3</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="363" />
        <source>%1, row %2</source>
        <translation>%1，第 %2 行</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_editor.py" line="367" />
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="73" />
        <source>new</source>
        <translation>新增</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="74" />
        <source>kept</source>
        <translation>保留</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="75" />
        <source>removed</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="128" />
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="119" />
        <source>Change</source>
        <translation>变更</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="126" />
        <source>Ends</source>
        <translation>两端</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="143" />
        <source>Configuration</source>
        <translation>配置</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="145" />
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="146" />
        <source>Lines</source>
        <translation>配置行</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="186" />
        <source>Undo this plan…</source>
        <translation>撤销此计划…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="190" />
        <source>Undo what the plan did, in the project as it is now (you see every action first)</source>
        <translation>在项目当前状态下撤销该计划所做的更改（会先列出每个操作）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="198" />
        <source>Take a GNS3 snapshot…</source>
        <translation>拍摄 GNS3 快照…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="202" />
        <source>Save the devices' configurations, stop the running nodes, take a GNS3 snapshot and start them again (you are asked first)</source>
        <translation>保存设备配置，停止运行中的节点，拍摄 GNS3 快照后再次启动它们（会先询问你）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/plan_view.py" line="220" />
        <source>This plan was applied by an older version: its undo is the GNS3 snapshot '%1', which you can restore in GNS3 (Edit &gt; Manage snapshots).</source>
        <translation>此计划由旧版本应用：它的撤销方式是 GNS3 快照“%1”，你可以在 GNS3 中恢复它（编辑 &gt; 管理快照）。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_editor.py" line="217" />
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_editor.py" line="96" />
        <source>Edit plan</source>
        <translation>编辑计划</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_editor.py" line="98" />
        <source>Change the plan's nodes, links and addressing before approving it</source>
        <translation>批准之前修改计划中的节点、链路和地址</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/approval_editor.py" line="215" />
        <source>Use the plan as proposed</source>
        <translation>改用原始计划</translation>
    </message>
</context><context>
    <name>PracticeCatalog</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/texts.py" line="24" />
        <source>en</source>
        <translation>zh_CN</translation>
    </message>
</context><context>
    <name>PracticePanel</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/texts.py" line="31" />
        <source>Beginner</source>
        <translation>初级</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/texts.py" line="32" />
        <source>Intermediate</source>
        <translation>中级</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/texts.py" line="33" />
        <source>Advanced</source>
        <translation>高级</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/texts.py" line="41" />
        <source>waiting for approval</source>
        <translation>等待批准</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/texts.py" line="42" />
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/texts.py" line="43" />
        <source>in progress</source>
        <translation>进行中</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/texts.py" line="44" />
        <source>solved</source>
        <translation>已解决</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/texts.py" line="45" />
        <source>given up</source>
        <translation>已放弃</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/texts.py" line="55" />
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/texts.py" line="59" />
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/texts.py" line="65" />
        <source>any topic</source>
        <translation>任意主题</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/texts.py" line="69" />
        <source>score %1</source>
        <translation>得分 %1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/texts.py" line="79" />
        <source>Fault %1: %2 (on %3)</source>
        <translation>故障 %1：%2（位于 %3）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/texts.py" line="85" />
        <source>Symptoms: %1</source>
        <translation>症状：%1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/texts.py" line="90" />
        <source>How to undo it:</source>
        <translation>如何撤销：</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/texts.py" line="98" />
        <source>Solved in %1 with %2 hint(s). Score: %3/100.</source>
        <translation>用时 %1 解决，使用了 %2 个提示。得分：%3/100。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/texts.py" line="111" />
        <source>cannot check (%1)</source>
        <translation>无法检查(%1)</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/texts.py" line="118" />
        <source>passed</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/texts.py" line="120" />
        <source>failed</source>
        <translation>未通过</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/panel.py" line="77" />
        <source>Practice</source>
        <translation>练习</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/panel.py" line="113" />
        <source>Ticket</source>
        <translation>工单</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/panel.py" line="224" />
        <source>Ticket: %1</source>
        <translation>工单:%1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/panel.py" line="303" />
        <source>Practice needs the local agent: exercises run only when the copilot runs on this computer (Settings, Copilot runs on).</source>
        <translation>练习需要本地智能体：只有当 Copilot 在本机运行时才能进行练习（设置 → Copilot 运行位置）。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="74" />
        <source>Difficulty</source>
        <translation>难度</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="79" />
        <source>Topic</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="109" />
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="80" />
        <source>Any</source>
        <translation>任意</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="90" />
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="86" />
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="84" />
        <source>Number of faults</source>
        <translation>故障数量</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="93" />
        <source>Start exercise</source>
        <translation>开始练习</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="123" />
        <source>A trainer's exercise is ready in this project.</source>
        <translation>此项目中有一个讲师准备的练习。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="130" />
        <source>Start the trainer's exercise</source>
        <translation>开始讲师的练习</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="133" />
        <source>Start the lab</source>
        <translation>启动实验</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="136" />
        <source>Start every stopped node of this lab, as GNS3's Start button does; the trainer's exercise is prepared once the lab runs.</source>
        <translation>像 GNS3 的启动按钮一样，启动本实验中所有已停止的节点；实验运行后即准备培训师的练习。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="143" />
        <source>Export for students…</source>
        <translation>导出给学生…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="146" />
        <source>Save this exercise and the lab as it is now in one file, encrypted with a passphrase, for students to import. Nothing is injected here.</source>
        <translation>将此练习和当前状态的实验保存到一个用口令加密的文件中，供学生导入。此处不会注入任何故障。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="153" />
        <source>Import an exercise…</source>
        <translation>导入练习…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="215" />
        <source>Check my fix</source>
        <translation>检查我的修复</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="217" />
        <source>Hint</source>
        <translation>提示</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="219" />
        <source>Give up</source>
        <translation>放弃</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="269" />
        <source>Exercise running: %1</source>
        <translation>练习进行中：%1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="284" />
        <source>Checks, hints and the answer</source>
        <translation>检查、提示和答案</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="294" />
        <source>Check results</source>
        <translation>检查结果</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="297" />
        <source>Hints</source>
        <translation>提示</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="303" />
        <source>Answer</source>
        <translation>答案</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="306" />
        <source>The results of Check my fix and the hints you ask for show here.</source>
        <translation>“检查我的修复”的结果和你请求的提示会显示在这里。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="363" />
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="358" />
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="353" />
        <source>Past exercises</source>
        <translation>以往练习</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/rows.py" line="383" />
        <source>Past exercises (%1)</source>
        <translation>以往练习（%1）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/exercise_files.py" line="64" />
        <source>Reading the lab and checking it works…</source>
        <translation>正在读取实验并检查其是否正常…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/exercise_files.py" line="78" />
        <source>Starting the lab…</source>
        <translation>正在启动实验…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/exercise_files.py" line="104" />
        <source>Exported to %1, signed by %2 (key fingerprint %3). Give students the file and, separately, the passphrase; tell them the fingerprint so that they can check it on their first import. The file is sealed against casual reading, not against a student who holds it with the passphrase: for graded work, use your class's copilot service (Class).</source>
        <translation>已导出到 %1，由 %2 签名（密钥指纹 %3）。把文件交给学生，并另行告知口令；也告诉他们指纹，以便首次导入时核对。此文件只防随意查看，防不住同时持有文件和口令的学生：计分的考试请使用本班的 Copilot 服务（课堂）。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/exercise_files.py" line="118" />
        <source>Trying each fault on the lab, then stopping the lab to export it… (it starts again after)</source>
        <translation>正在实验上试注入每个故障,然后停止实验以导出……(之后会重新启动)</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/exercise_files.py" line="142" />
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/exercise_files.py" line="153" />
        <source>Not imported: the trainer's key was not trusted.</source>
        <translation>未导入：未信任培训师的密钥。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/exercise_files.py" line="166" />
        <source>Exercises run only with the local agent.</source>
        <translation>练习只能在本地代理下运行。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/exercise_files.py" line="172" />
        <source>The lab was imported as the project “%1”. Open it in GNS3, then start the trainer's exercise from a Practice session there.</source>
        <translation>实验已导入为项目“%1”。请在 GNS3 中打开它，然后在该项目的练习会话中开始讲师的练习。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/exercise_files.py" line="180" />
        <source>Importing the exercise…</source>
        <translation>正在导入练习…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/exercise_files.py" line="187" />
        <source>Exercise files need the local agent's keyring and settings.</source>
        <translation>练习文件需要本地智能体的密钥环和设置。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/exercise_files.py" line="211" />
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/running.py" line="53" />
        <source>Some checks cannot run: the lab changed (a node or link the exercise uses is gone, replaced or stopped). Put it back, then check again.</source>
        <translation>部分检查无法运行:实验已改变(练习用到的节点或链路已删除、被替换或已停止)。恢复后再检查。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/running.py" line="61" />
        <source>Not fixed yet: some checks failed.</source>
        <translation>尚未修复：部分检查未通过。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/running.py" line="66" />
        <source>Checking the lab…</source>
        <translation>正在检查实验…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/running.py" line="98" />
        <source>You gave up. Here is the answer.</source>
        <translation>你已放弃。以下是答案。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/running.py" line="103" />
        <source>Undo the exercise's faults in the lab?</source>
        <translation>撤销实验中的练习故障?</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/running.py" line="116" />
        <source>The lab stays as it is.</source>
        <translation>实验保持现状。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/running.py" line="127" />
        <source>The exercise's faults were undone.</source>
        <translation>练习的故障已撤销。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/running.py" line="129" />
        <source>Left as they are (the lab changed): %1.</source>
        <translation>保持原样(实验已改变):%1。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/running.py" line="135" />
        <source>Undoing the faults…</source>
        <translation>正在撤销故障……</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/starting.py" line="51" />
        <source>Reading the lab and choosing faults…</source>
        <translation>正在读取实验并选择故障…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/starting.py" line="61" />
        <source>Approve to start: the faults go into the running lab; nothing is stopped.</source>
        <translation>批准后开始:故障注入正在运行的实验;不会停止任何节点。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/starting.py" line="84" />
        <source>Exercise started (every fault confirmed): find what is broken and fix it.</source>
        <translation>练习已开始(每个故障均已确认):找出故障并修复。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/starting.py" line="96" />
        <source>Injecting the faults and confirming each on its device…</source>
        <translation>正在注入故障并在设备上逐一确认……</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/starting.py" line="119" />
        <source>Nothing was injected.</source>
        <translation>没有注入任何内容。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/sealed_item.py" line="33" />
        <source>Injected (sealed)</source>
        <translation>已注入（密封）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/sealed_item.py" line="43" />
        <source>What was injected stays sealed until the exercise ends.</source>
        <translation>注入的内容在练习结束前保持密封。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/sealed_item.py" line="59" />
        <source>Injected: %1</source>
        <translation>已注入：%1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/dialogs.py" line="34" />
        <source>This exercise is signed by %1, whose key this computer has not seen before.

Key fingerprint: %2

Compare it with the fingerprint your trainer gave you. If you trust it, files from %1 signed by any other key will be refused.</source>
        <translation>此练习由 %1 签名，本机以前没有见过其密钥。

密钥指纹：%2

请与培训师给您的指纹核对。信任后，%1 的文件若由其他密钥签名将被拒绝。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/dialogs.py" line="45" />
        <source>Trust this trainer's key?</source>
        <translation>信任此培训师的密钥？</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/dialogs.py" line="52" />
        <source>Trust and import</source>
        <translation>信任并导入</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/dialogs.py" line="63" />
        <source>Give up this exercise?</source>
        <translation>放弃此练习?</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/dialogs.py" line="64" />
        <source>The answer will be shown and the exercise scores 0. You can then undo the faults in the lab.</source>
        <translation>将显示答案,本次练习得 0 分。之后你可以撤销实验中的故障。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/dialogs.py" line="73" />
        <source>Give up and show the answer</source>
        <translation>放弃并显示答案</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/dialogs.py" line="99" />
        <source>Exercise passphrase</source>
        <translation>练习口令</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/dialogs.py" line="103" />
        <source>Passphrase (at least 8 characters; students need it to import):</source>
        <translation>口令（至少 8 个字符；学生导入时需要）：</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/dialogs.py" line="107" />
        <source>The passphrase from your trainer:</source>
        <translation>讲师给你的口令：</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/dialogs.py" line="116" />
        <source>The same passphrase again:</source>
        <translation>再次输入相同的口令：</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/dialogs.py" line="123" />
        <source>The two passphrases differ: nothing was exported.</source>
        <translation>两次输入的口令不同：未导出任何内容。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/dialogs.py" line="132" />
        <source>GNS3 Copilot exercises (*%1)</source>
        <translation>GNS3 Copilot 练习 (*%1)</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/dialogs.py" line="141" />
        <source>Export the exercise</source>
        <translation>导出练习</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/practice/dialogs.py" line="158" />
        <source>Import an exercise</source>
        <translation>导入练习</translation>
    </message>
</context><context>
    <name>RemoteBackend</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/backends/remote.py" line="111" />
        <source>Edits cannot be checked on a copilot service on another computer: Approve the call as shown or Reject it.</source>
        <translation>在另一台计算机上的 Copilot 服务无法检查修改：请按所示批准该调用，或拒绝它。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/backends/remote.py" line="197" />
        <source>This conversation no longer exists.</source>
        <translation>此对话已不存在。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/backends/remote.py" line="203" />
        <source>A copilot service does not support importing or continuing a conversation: it works when the copilot runs on this computer (choose it in the settings).</source>
        <translation>Copilot 服务不支持导入或继续对话：只有 Copilot 在本机运行时才可以（请在设置中选择）。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/backends/remote.py" line="217" />
        <source>Log in to the GNS3 server first.</source>
        <translation>请先登录 GNS3 服务器。</translation>
    </message>
</context><context>
    <name>ServiceBackend</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/backends/remote.py" line="61" />
        <location filename="../../gns3_copilot_desktop/ui/backends/service.py" line="67" />
        <source>Open a project in GNS3 or choose one above first.</source>
        <translation>请先在 GNS3 中打开一个项目，或在上方选择一个。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/backends/service.py" line="375" />
        <source>Already decided: rejected. It will not run again.</source>
        <translation>已作出决定：已拒绝。它不会再次运行。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/backends/service.py" line="379" />
        <source>Already decided: approved. It will not run again (its result is not in this copy of the conversation).</source>
        <translation>已作出决定：已批准。它不会再次运行（其结果不在此对话副本中）。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/backends/service.py" line="389" />
        <source>Already decided</source>
        <translation>已作出决定</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/backends/service.py" line="432" />
        <source>The conversations in %1 could not be moved to the app's data folder (%2). They were left there unchanged; this project's conversations start anew.</source>
        <translation>%1 中的对话无法移动到应用的数据文件夹（%2）。它们原样保留在那里；此项目的对话将重新开始。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/backends/service.py" line="441" />
        <source>The project folder still holds conversations (%1). The ones in the app's data folder are used; that file was left as it is.</source>
        <translation>项目文件夹中仍有对话（%1）。使用的是应用数据文件夹中的对话；该文件原样保留。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/backends/service.py" line="447" />
        <source>The project folder holds conversations from another computer (%1). They were not opened (a shared file could make the app run something) and were left as they are.</source>
        <translation>项目文件夹中有来自另一台计算机的对话（%1）。它们未被打开（共享的文件可能让应用运行某些操作），并原样保留。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/backends/service.py" line="453" />
        <source>This project came with conversations from another computer. They were not opened (a shared file could make the app run something); this computer keeps its own beside them.</source>
        <translation>此项目带有来自另一台计算机的对话。它们没有被打开（共享的文件可能让应用执行某些内容）；本机会在旁边保存自己的对话。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/backends/service.py" line="459" />
        <source>The conversations of this project could not be read; the file was kept as %1 and a new one started.</source>
        <translation>无法读取此项目的对话；原文件已保留为 %1，并新建了一个。</translation>
    </message>
</context><context>
    <name>SessionsPanel</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="52" />
        <source>Tutor</source>
        <translation>导师</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="54" />
        <source>Practice</source>
        <translation>练习</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="55" />
        <source>Assistant</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="61" />
        <source>Teaches how to find the problem: reads the lab, never changes it, asks what you see.</source>
        <translation>教你如何找到问题：读取实验但从不更改，并询问你看到了什么。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="66" />
        <source>Exercises: faults injected into the lab after your approval, a sealed answer, your fix checked.</source>
        <translation>练习：经你批准后向实验注入故障，答案密封，并检查你的修复。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="71" />
        <source>Reads and changes the lab for you, each change after your approval.</source>
        <translation>为你读取和更改实验，每项更改都需你批准。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="86" />
        <source>just now</source>
        <translation>刚刚</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="88" />
        <source>%1 min ago</source>
        <translation>%1 分钟前</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="92" />
        <source>%1 h ago</source>
        <translation>%1 小时前</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="97" />
        <source>yesterday</source>
        <translation>昨天</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="99" />
        <source>%1 days ago</source>
        <translation>%1 天前</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="129" />
        <source>, pinned</source>
        <translation>，已置顶</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="150" />
        <source>Search titles and messages</source>
        <translation>搜索标题和消息内容</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="153" />
        <source>Search sessions</source>
        <translation>搜索会话</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="160" />
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="161" />
        <source>New session</source>
        <translation>新建会话</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="169" />
        <source>New session (the arrow chooses Assistant, Tutor or Practice)</source>
        <translation>新建会话（点击箭头选择助手、导师或练习）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="174" />
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="346" />
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="175" />
        <source>Rename session</source>
        <translation>重命名会话</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="317" />
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="179" />
        <source>Pin</source>
        <translation>置顶</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="180" />
        <source>Pin or unpin session</source>
        <translation>置顶或取消置顶会话</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="184" />
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="375" />
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="185" />
        <source>Delete session</source>
        <translation>删除会话</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="189" />
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/session_files.py" line="39" />
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="190" />
        <source>Export session</source>
        <translation>导出会话</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="194" />
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="195" />
        <source>Import an exported session as a new, read-only conversation</source>
        <translation>将导出的会话导入为新的只读对话</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="210" />
        <source>Sessions</source>
        <translation>会话</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="315" />
        <source>Unpin</source>
        <translation>取消置顶</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="347" />
        <source>Title:</source>
        <translation>标题：</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/panel.py" line="376" />
        <source>Delete “%1” and its whole conversation? This cannot be undone.</source>
        <translation>删除“%1”及其全部对话内容？此操作无法撤销。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/list_rows.py" line="27" />
        <source>New conversation</source>
        <translation>新对话</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/list_rows.py" line="43" />
        <source>Session title</source>
        <translation>会话标题</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/session_files.py" line="31" />
        <source>Markdown (*.md)</source>
        <translation>Markdown 文件 (*.md)</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/session_files.py" line="41" />
        <source>JSON (*.json)</source>
        <translation>JSON 文件 (*.json)</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/session_files.py" line="61" />
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/session_files.py" line="71" />
        <source>Import session</source>
        <translation>导入会话</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/session_files.py" line="73" />
        <source>Session exports (*.md *.json)</source>
        <translation>会话导出文件 (*.md *.json)</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/sessions/session_files.py" line="100" />
        <source>Could not read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
</context><context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/general_tab.py" line="21" />
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/general_tab.py" line="22" />
        <source>Off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/general_tab.py" line="25" />
        <source>Heartbeat interval</source>
        <translation>心跳间隔</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/general_tab.py" line="29" />
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/general_tab.py" line="31" />
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/general_tab.py" line="38" />
        <source>Heartbeat while working</source>
        <translation>处理时显示心跳</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/general_tab.py" line="42" />
        <source>Language (after restart)</source>
        <translation>语言（重启后生效）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/dialog.py" line="59" />
        <location filename="../../gns3_copilot_desktop/ui/settings/dialog.py" line="58" />
        <source>Copilot settings</source>
        <translation>Copilot 设置</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/dialog.py" line="64" />
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/dialog.py" line="66" />
        <source>Permissions</source>
        <translation>权限</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/dialog.py" line="69" />
        <source>Console logins</source>
        <translation>控制台登录</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/dialog.py" line="72" />
        <source>General</source>
        <translation>常规</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/dialog.py" line="76" />
        <source>Copilot service</source>
        <translation>Copilot 服务</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/permissions_tab.py" line="19" />
        <source>Tools that run without asking, per project:</source>
        <translation>各项目中无需询问即可运行的工具：</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/permissions_tab.py" line="26" />
        <source>Always-allowed tools</source>
        <translation>始终允许的工具</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/permissions_tab.py" line="29" />
        <source>Revoke</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="49" />
        <source>Ollama (local)</source>
        <translation>Ollama（本机）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="53" />
        <source>OpenAI-compatible (LM Studio, vLLM, OpenRouter…)</source>
        <translation>OpenAI 兼容接口（LM Studio、vLLM、OpenRouter…）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="73" />
        <source>Model profiles</source>
        <translation>模型配置</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="77" />
        <source>Add profile</source>
        <translation>添加配置</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="80" />
        <source>Remove profile</source>
        <translation>删除配置</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="85" />
        <source>Use this profile</source>
        <translation>使用此配置</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="97" />
        <source>Profile name</source>
        <translation>配置名称</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="144" />
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="99" />
        <source>Provider</source>
        <translation>提供商</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="145" />
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="104" />
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="146" />
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="105" />
        <source>Base URL</source>
        <translation>API 地址</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="106" />
        <source>Provider default</source>
        <translation>提供商默认地址</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="147" />
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="107" />
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="148" />
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="113" />
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="118" />
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="119" />
        <source>Context window (tokens)</source>
        <translation>上下文窗口（token 数）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="121" />
        <source>Detect local models</source>
        <translation>检测本机模型</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="124" />
        <source>Looks for llama.cpp's server, llama-cpp-python, Ollama and LM Studio at the base URL typed above and on this computer, and fills the profile from what they serve, with the context window the server runs.</source>
        <translation>在上方填写的基础 URL 和本机上查找 llama.cpp 服务器、llama-cpp-python、Ollama 和 LM Studio，并按其提供的模型填写配置，包括服务器实际运行的上下文窗口。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="135" />
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="139" />
        <source>Connection test result</source>
        <translation>连接测试结果</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="141" />
        <source>Profile</source>
        <translation>配置</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="143" />
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="149" />
        <source>Context window</source>
        <translation>上下文窗口</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="257" />
        <source>A key is stored in the OS keyring</source>
        <translation>系统密钥环中已保存密钥</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="259" />
        <source>No key stored</source>
        <translation>未保存密钥</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/profile_probe.py" line="115" />
        <location filename="../../gns3_copilot_desktop/ui/settings/models_tab.py" line="299" />
        <source>New profile</source>
        <translation>新配置</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/profile_probe.py" line="50" />
        <source>Looking for local model servers…</source>
        <translation>正在查找本机模型服务器…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/profile_probe.py" line="54" />
        <source>Looking for Ollama…</source>
        <translation>正在查找 Ollama…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/profile_probe.py" line="73" />
        <source>No local model server answered on this computer (ports 8080, 8000, 11434, 1234). Start llama.cpp's server, Ollama or LM Studio with a model, then detect again.</source>
        <translation>本机没有模型服务器响应（端口 8080、8000、11434、1234）。请启动带模型的 llama.cpp 服务器、Ollama 或 LM Studio，然后重新检测。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../gns3_copilot_desktop/ui/settings/profile_probe.py" line="92" />
        <source>Found %n local model(s): pick one, then Test connection.</source>
        <translation>
            <numerusform>找到 %n 个本机模型：选择一个，然后点击“测试连接”。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/profile_probe.py" line="116" />
        <source>Local model</source>
        <translation>本机模型</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/profile_probe.py" line="128" />
        <source>Local model: %1 at %2</source>
        <translation>本机模型：%1，地址 %2</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/profile_probe.py" line="148" />
        <source>Ollama answered but has no models installed.</source>
        <translation>Ollama 有响应，但没有安装任何模型。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/profile_probe.py" line="159" />
        <source>Ollama models found: {n}</source>
        <translation>找到 {n} 个 Ollama 模型</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/settings/profile_probe.py" line="173" />
        <source>Testing…</source>
        <translation>正在测试…</translation>
    </message>
</context><context>
    <name>Shortcuts</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/shortcuts.py" line="37" />
        <source>Approve the waiting change</source>
        <translation>批准等待中的更改</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/shortcuts.py" line="38" />
        <source>Reject the waiting change (asks why)</source>
        <translation>拒绝等待中的更改（会询问原因）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/shortcuts.py" line="39" />
        <source>New session</source>
        <translation>新建会话</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/shortcuts.py" line="40" />
        <source>Search sessions</source>
        <translation>搜索会话</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/shortcuts.py" line="41" />
        <source>Back to the message box</source>
        <translation>回到消息框</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/shortcuts.py" line="42" />
        <source>Send the message</source>
        <translation>发送消息</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/shortcuts.py" line="43" />
        <source>New line in the message</source>
        <translation>在消息中换行</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/shortcuts.py" line="44" />
        <source>Stop the answer</source>
        <translation>停止回答</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/shortcuts.py" line="45" />
        <source>From the message box to the waiting card</source>
        <translation>从消息框跳到等待中的卡片</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/shortcuts.py" line="46" />
        <source>Show or hide this list</source>
        <translation>显示或隐藏此列表</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/shortcuts.py" line="58" />
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/shortcuts.py" line="87" />
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
</context><context>
    <name>StatusLine</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/status_line.py" line="34" />
        <source>Activity</source>
        <translation>活动</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/status_line.py" line="37" />
        <source>Token usage</source>
        <translation>Token 用量</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/status_line.py" line="42" />
        <source>Estimated cost</source>
        <translation>预估费用</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/status_line.py" line="46" />
        <source>Context used</source>
        <translation>已用上下文</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/status_line.py" line="115" />
        <source>%1 tokens</source>
        <translation>%1 token</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/status_line.py" line="119" />
        <source>Session: %1 input and %2 output tokens</source>
        <translation>本会话：输入 %1 token，输出 %2 token</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/status_line.py" line="137" />
        <source>Context used by the next request: %1</source>
        <translation>下一次请求占用的上下文：%1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/status_line.py" line="154" />
        <source>Estimated cost of the session (USD)</source>
        <translation>本会话的预估费用（美元）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/status_line.py" line="156" />
        <source>Cost shown only for the provider's own endpoint, not a custom base URL</source>
        <translation>仅对服务商官方端点显示费用，自定义 Base URL 不显示</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/status_line.py" line="161" />
        <source>Cost not known for this model</source>
        <translation>此模型的费用未知</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/chat/status_line.py" line="194" />
        <source>working · %1 s</source>
        <translation>处理中 · %1 秒</translation>
    </message>
</context><context>
    <name>TaskEditor</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="44" />
        <source>beginner</source>
        <translation>初级</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="45" />
        <source>intermediate</source>
        <translation>中级</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="46" />
        <source>advanced</source>
        <translation>高级</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="61" />
        <source>Save this lab as a task</source>
        <translation>将此实验保存为题目</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="69" />
        <source>What the student is told, as a user says it</source>
        <translation>学生看到的问题描述，就像用户报告的那样</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="78" />
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="79" />
        <source>Ticket</source>
        <translation>工单</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="80" />
        <source>Level</source>
        <translation>难度</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="81" />
        <source>Minutes</source>
        <translation>分钟</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="84" />
        <source>Checks proposed from the lab</source>
        <translation>根据实验建议的检查项</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="87" />
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="90" />
        <source>Lines that break it, one per line</source>
        <translation>制造故障的命令，每行一条</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="94" />
        <source>Lines that undo it, one per line</source>
        <translation>撤销故障的命令，每行一条</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="102" />
        <source>Prove</source>
        <translation>验证</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="104" />
        <source>Prove the task on the lab</source>
        <translation>在实验上验证此题</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="106" />
        <source>Save…</source>
        <translation>保存…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="108" />
        <source>Save the task file</source>
        <translation>保存题目文件</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="111" />
        <source>Upload to the class</source>
        <translation>上传到课堂</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="114" />
        <source>Upload the task to the copilot service</source>
        <translation>将题目上传到 Copilot 服务</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="121" />
        <source>Checks</source>
        <translation>检查项</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="123" />
        <source>The fault</source>
        <translation>故障</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="125" />
        <source>Break it with:</source>
        <translation>制造故障：</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="127" />
        <source>Undo it with:</source>
        <translation>撤销故障：</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="145" />
        <source>Save the task</source>
        <translation>保存题目</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="155" />
        <source>Reading the lab…</source>
        <translation>正在读取实验…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="174" />
        <source>{count} checks pass on the lab now; pick them, then write the fault.</source>
        <translation>当前实验通过 {count} 项检查；请勾选要用的检查，然后填写故障。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="216" />
        <source>Proving on the lab: checks, the fault, checks, undo…</source>
        <translation>正在实验上验证：检查、注入故障、再检查、撤销…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="234" />
        <source>Proved: every check passes on the lab, {failing} fail with the fault in, all pass again once it is undone. The lab is as it was.</source>
        <translation>验证通过：所有检查在实验上通过，注入故障后 {failing} 项失败，撤销后全部再次通过。实验已恢复原样。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="254" />
        <source>Saved to {name}.</source>
        <translation>已保存到 {name}。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/classroom/task_editor.py" line="266" />
        <source>Uploaded: the task can go into an exam.</source>
        <translation>已上传：这道题可以用于考试了。</translation>
    </message>
</context><context>
    <name>ToolCard</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="53" />
        <source>queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="54" />
        <source>awaiting approval</source>
        <translation>等待批准</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="57" />
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="58" />
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="59" />
        <source>error</source>
        <translation>出错</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="60" />
        <source>rejected</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="61" />
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="157" />
        <source>truncated</source>
        <translation>已截断</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="160" />
        <source>The model saw a shortened version of this output.</source>
        <translation>模型看到的是此输出的截断版本。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="220" />
        <source>Tool %1: %2, %3</source>
        <translation>工具 %1：%2，%3</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="225" />
        <source>Show details of %1</source>
        <translation>显示 %1 的详情</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_text.py" line="24" />
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="238" />
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="306" />
        <source>Nodes: %1</source>
        <translation>节点：%1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="318" />
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="315" />
        <source>Arguments</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="323" />
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="321" />
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="326" />
        <source>Show all</source>
        <translation>显示全部</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="328" />
        <source>Show the whole output</source>
        <translation>显示完整输出</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="355" />
        <source>%1 before (%2)</source>
        <translation>%1 之前（%2）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="356" />
        <source>%1 after (%2)</source>
        <translation>%1 之后（%2）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="382" />
        <source>(no output yet)</source>
        <translation>（暂无输出）</translation>
    </message>
    <message numerus="yes">
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="434" />
        <source>%n tool call(s)</source>
        <translation>
            <numerusform>%n 个工具调用</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_card.py" line="436" />
        <source>%1 running</source>
        <translation>%1 个运行中</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_text.py" line="21" />
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_text.py" line="27" />
        <source>%1 min %2 s</source>
        <translation>%1 分 %2 秒</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_text.py" line="38" />
        <source>… %1 lines hidden …</source>
        <translation>… 已隐藏 %1 行 …</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/tool_text.py" line="45" />
        <source>
… %1 characters hidden …
</source>
        <translation>
… 已隐藏 %1 个字符 …
</translation>
    </message>
</context><context>
    <name>ToolName</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/__init__.py" line="110" />
        <source>Set up the exercise</source>
        <translation>准备练习</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/core_text/__init__.py" line="111" />
        <source>Restore the lab</source>
        <translation>恢复实验</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/plan_tools.py" line="51" />
        <source>Lab plan</source>
        <translation>实验规划</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/read_tools.py" line="25" />
        <source>List projects</source>
        <translation>列出项目</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/read_tools.py" line="57" />
        <source>Read the topology</source>
        <translation>读取拓扑</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/read_tools.py" line="126" />
        <source>List templates</source>
        <translation>列出模板</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/change_tools.py" line="79" />
        <source>Add nodes</source>
        <translation>添加节点</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/change_tools.py" line="185" />
        <source>Rename or move nodes</source>
        <translation>重命名或移动节点</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/change_tools.py" line="274" />
        <source>Delete nodes</source>
        <translation>删除节点</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/link_tools.py" line="71" />
        <source>Connect ports</source>
        <translation>连接端口</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/link_tools.py" line="197" />
        <source>Remove links</source>
        <translation>删除链路</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/capture_tools.py" line="51" />
        <source>Start a capture</source>
        <translation>开始抓包</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/capture_tools.py" line="86" />
        <source>Stop a capture</source>
        <translation>停止抓包</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/capture_tools.py" line="127" />
        <source>Read a capture</source>
        <translation>分析抓包</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/power_tools.py" line="244" />
        <source>Start nodes</source>
        <translation>启动节点</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/power_tools.py" line="256" />
        <source>Stop nodes</source>
        <translation>停止节点</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/power_tools.py" line="265" />
        <source>Suspend nodes</source>
        <translation>暂停节点</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/power_tools.py" line="274" />
        <source>Reload nodes</source>
        <translation>重新加载节点</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/inspect_tools.py" line="49" />
        <source>Node details</source>
        <translation>节点详情</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/inspect_tools.py" line="132" />
        <source>Links</source>
        <translation>链路</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/inspect_tools.py" line="196" />
        <source>Project statistics</source>
        <translation>项目统计</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/inspect_tools.py" line="236" />
        <source>List snapshots</source>
        <translation>列出快照</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/inspect_tools.py" line="317" />
        <source>Template details</source>
        <translation>模板详情</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/device_tools.py" line="353" />
        <source>Run commands</source>
        <translation>运行命令</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/device_tools.py" line="395" />
        <source>Configure devices</source>
        <translation>配置设备</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/project_tools.py" line="35" />
        <source>Take a snapshot</source>
        <translation>创建快照</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/project_tools.py" line="77" />
        <source>Restore a snapshot</source>
        <translation>恢复快照</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/core/agent/tools/project_tools.py" line="152" />
        <source>Add a note</source>
        <translation>添加注释</translation>
    </message>
</context><context>
    <name>TopologyCard</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/lab_card.py" line="70" />
        <source>Lab %1</source>
        <translation>实验 %1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/lab_card.py" line="78" />
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/lab_card.py" line="80" />
        <source>Refresh the lab drawing</source>
        <translation>刷新拓扑图</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/lab_card.py" line="152" />
        <source>%1 nodes (%2 running), %3 links</source>
        <translation>%1 个节点（%2 个运行中），%3 条链路</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/lab_card.py" line="185" />
        <source>Open console</source>
        <translation>打开控制台</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/lab/lab_card.py" line="199" />
        <source>Show in GNS3</source>
        <translation>在 GNS3 中显示</translation>
    </message>
</context><context>
    <name>UndoView</name>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/undo_view.py" line="53" />
        <source>Restore this configuration…</source>
        <translation>恢复此配置…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/undo_view.py" line="54" />
        <source>Push back the lines that take the devices to the configuration they ran before this change (you see every line first)</source>
        <translation>推回能让设备回到此更改之前所运行配置的各行（会先让您看到每一行）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/undo_view.py" line="60" />
        <source>Undo…</source>
        <translation>撤销…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/undo_view.py" line="61" />
        <source>Undo this change (you see what will happen first)</source>
        <translation>撤销此更改（会先让您看到将发生什么）</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/undo_view.py" line="85" />
        <source>Reading the project…</source>
        <translation>正在读取项目…</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/undo_view.py" line="102" />
        <source>Already undone.</source>
        <translation>已撤销。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/undo_view.py" line="108" />
        <source>This will:</source>
        <translation>将会：</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/undo_view.py" line="115" />
        <source>No longer applies, left as it is now:</source>
        <translation>已不再适用，保持现状：</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/undo_view.py" line="124" />
        <source>Read every action and every line below before you approve.</source>
        <translation>批准前请阅读下面的每个操作和每一行。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/undo_view.py" line="152" />
        <source>Nothing to undo: %1</source>
        <translation>没有可撤销的内容：%1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/undo_view.py" line="158" />
        <source>Undone: %1</source>
        <translation>已撤销：%1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/undo_view.py" line="161" />
        <source>Undo stopped: %1</source>
        <translation>撤销已停止：%1</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/undo_view.py" line="165" />
        <source>Done before: %1.</source>
        <translation>此前已完成：%1。</translation>
    </message>
    <message>
        <location filename="../../gns3_copilot_desktop/ui/cards/undo_view.py" line="169" />
        <source>Not done: %1.</source>
        <translation>未完成：%1。</translation>
    </message>
</context></TS>
