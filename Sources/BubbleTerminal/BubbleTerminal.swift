// The terminal transcript renderer.
import BubbleLayout
