// Chat-log input: the native JSON Lines format and chat-app exports.
import BubbleLayout
