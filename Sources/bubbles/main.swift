import BubblesCLI

print("bubbles \(bubblesVersion)")
