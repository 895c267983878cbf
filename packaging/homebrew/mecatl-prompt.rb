# Homebrew formula template (SPEC §20.3). scripts/release-index.sh, run by
# scripts/release.sh, writes the formula of a release to
# OUTDIR/mecatl-prompt.rb: @VERSION@ becomes the version and the
# @PLATFORMS@ line an `on_macos` / `on_linux` block with the URL and SHA-256
# of each platform's release archive. Publish that file in a tap
# (`brew install OWNER/tap/mecatl-prompt`).
class MecatlPrompt < Formula
  desc "Preview, check and script the system prompt a coding agent builds from a repository"
  homepage "https://github.com/OWNER/mecatl-prompt"
  version "@VERSION@"
  license any_of: ["MIT", "Apache-2.0"]

  @PLATFORMS@

  def install
    bin.install "mecatl-prompt"
    man1.install "man/mecatl-prompt.1"
    bash_completion.install "completions/mecatl-prompt.bash" => "mecatl-prompt"
    zsh_completion.install "completions/_mecatl-prompt"
    fish_completion.install "completions/mecatl-prompt.fish"
  end

  test do
    assert_equal "mecatl-prompt #{version}", shell_output("#{bin}/mecatl-prompt --version").strip
  end
end
